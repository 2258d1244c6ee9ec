#!/bin/sh
# Build and run the gradient check for the adjoint of cost(j)/(ctrl).
# Requires cost_b.c (C code exporting cost_b_, all arguments by reference)
# in this directory.
set -e
cd "$(dirname "$0")"

# primal model (module heat_mod + external subroutines, incl. cost)
gfortran -c -O2 model.f90

# generated adjoint
gcc -c -O2 cost_b.c

# driver, link, run
gfortran driver_b.f90 model.o cost_b.o -o driver_b -lm
./driver_b
