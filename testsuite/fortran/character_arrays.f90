! adgen-test
! head: weighted_cost(c)/(u w)
! arg n: integer = 3
! arg u: real(8)[n] = uniform(0.5, 1.5)
! arg w: real(8)[n] = uniform(0.5, 1.5)
! arg c: real(8)
!
! CHARACTER arrays, data that carries no derivative: a module's table of names with their
! initial values, a PARAMETER table, a SAVEd local and a plain local array of strings,
! a dummy array of strings (explicit shape, assumed length) passed whole; their elements
! read, compared (IF, SELECT CASE), assigned, cut (`names(i)(1:2)`), concatenated and
! passed to a CHARACTER dummy; a whole array given one string or a constructor, and its
! len(); output statements naming the whole arrays are left out.
module fields
  implicit none
  character(len=8) :: names(3) = ['velocity', 'pressure', 'density ']
  character(len=4), parameter :: units(3) = ['m/s ', 'Pa  ', 'kg  ']
  real(8) :: scales(3) = [1d0, 2d0, 0.5d0]
contains
  real(8) function weight_of(name, unit)
    character(len=*), intent(in) :: name, unit
    select case (name)
    case ('velocity')
      weight_of = 2d0
    case ('pressure', 'density')
      weight_of = 0.5d0
    case default
      weight_of = 1d0
    end select
    if (unit(1:2) == 'Pa') weight_of = weight_of * 3d0
  end function weight_of

  real(8) function count_matches(labels, m, key)
    integer, intent(in) :: m
    character(len=*), intent(in) :: labels(m), key
    integer :: i
    count_matches = 0d0
    do i = 1, m
      if (labels(i)(1:len_trim(key)) == key) count_matches = count_matches + 1d0
    end do
  end function count_matches

  subroutine weighted_cost(n, u, w, c)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n), w(n)
    real(8), intent(out) :: c
    character(len=12) :: tags(3)
    character(len=8), save :: seen(2) = 'none'
    integer :: i
    c = 0d0
    tags = ''
    if (seen(2) == 'none') seen = ['velocity', 'first   ']
    do i = 1, n
      tags(i) = trim(names(i)) // '_' // units(i)(1:2)
      c = c + weight_of(names(i), units(i)) * scales(i) * u(i)**2 * w(i)
      if (tags(i)(1:3) == 'pre') c = c + sin(u(i))
    end do
    ! (a SAVEd element assigned on every call would be state the output cannot share:
    ! err_saved_character_flag.f90)
    tags(1) = names(2)
    if (tags(1) == 'pressure') c = c * (1d0 + count_matches(names, 3, 'de'))
    if (seen(2) == 'first') c = c + len(tags) * 1d-3 * u(1)
    write(*, *) names, units
    print *, tags
  end subroutine weighted_cost
end module fields
