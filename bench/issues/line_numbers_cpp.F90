! adgen: positions in a .F90 file that goes through the C preprocessor are off: the warning for the print statement on line 8 names line 17 (cpp line markers are not followed).
#ifdef NEVER_DEFINED
#endif
subroutine f(x, y)
  implicit none
  double precision, intent(in) :: x
  double precision, intent(out) :: y
  print *, x
  y = x * x
end subroutine f
