! An ordinary Fortran program calling the BLAS routine SGEMM; it knows
! nothing of gemmkit. Built against the reference BLAS and against gemmkit it
! must print the same numbers within float32 rounding (same output format as
! cblas_demo.c: "# name m n k alpha beta", then the elements of C).
program fortran_demo
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  implicit none
  integer(8) :: state = 12345_8
  call multiply('NN', 'N', 'N', 1, 1, 1, 1.0, 0.0)
  call multiply('NN', 'N', 'N', 3, 4, 5, 1.0, 0.5)
  call multiply('TN', 'T', 'N', 7, 5, 3, -1.0, 0.0)
  call multiply('NT', 'N', 'T', 17, 33, 9, 2.0, 1.0)
  call multiply('TT', 'T', 'T', 40, 31, 29, 1.0, -1.5)
  call multiply('tn-lower', 't', 'n', 12, 10, 8, 0.5, 0.0)
  call multiply('CN', 'C', 'N', 9, 6, 11, 1.0, 0.0)
  call multiply('alpha0', 'N', 'N', 5, 4, 3, 0.0, 2.0)
  ! Large enough for the device (see the threshold in CMakeLists.txt).
  call multiply('NN-large', 'N', 'N', 128, 112, 96, 1.0, 0.0)
  call multiply('TN-large', 'T', 'N', 100, 120, 130, 0.25, 1.0)

contains

  real function next_value()
    state = mod(state * 1103515245_8 + 12345_8, 2147483648_8)
    next_value = real(state, 8) / 1073741824.0d0 - 1.0d0
  end function next_value

  subroutine fill(x)
    real, intent(out) :: x(:, :)
    integer :: i, j
    do j = 1, size(x, 2)
      do i = 1, size(x, 1)
        x(i, j) = next_value()
      end do
    end do
  end subroutine fill

  subroutine multiply(name, ta, tb, m, n, k, alpha, beta)
    character(*), intent(in) :: name
    character, intent(in) :: ta, tb
    integer, intent(in) :: m, n, k
    real, intent(in) :: alpha, beta
    real, allocatable :: a(:, :), b(:, :), c(:, :)
    integer :: lda, ldb, ldc, i, j
    external :: sgemm
    ! Leading dimensions with a gap of 1.
    if (ta == 'N' .or. ta == 'n') then
      lda = m + 1
      allocate (a(lda, k))
    else
      lda = k + 1
      allocate (a(lda, m))
    end if
    if (tb == 'N' .or. tb == 'n') then
      ldb = k + 1
      allocate (b(ldb, n))
    else
      ldb = n + 1
      allocate (b(ldb, k))
    end if
    ldc = m + 1
    allocate (c(ldc, n))
    call fill(a)
    call fill(b)
    call fill(c)
    if (beta == 0.0) c = ieee_value(c(1, 1), ieee_quiet_nan)  ! not read when beta is 0
    call sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    write (*, '(a, a, 1x, i0, 1x, i0, 1x, i0, 1x, g0, 1x, g0)') '# ', name, m, n, k, alpha, beta
    do i = 1, m
      do j = 1, n
        write (*, '(es17.9)') c(i, j)
      end do
    end do
    deallocate (a, b, c)
  end subroutine multiply
end program fortran_demo
