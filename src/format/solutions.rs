//! N-queens solutions drawn as text boards, JSON lines and SVG.
