//! Counting N-queens solutions, all and up to the 8 symmetries of the board.
