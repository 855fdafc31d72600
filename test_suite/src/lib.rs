//! Empty: the suite is its tests, examples and benchmarks.
