// Compiled only to build the tests' precompiled headers (see tests/CMakeLists.txt).
