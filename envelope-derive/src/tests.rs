//! Unit tests of the expansion as a plain function, outside the compiler.
