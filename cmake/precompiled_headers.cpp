// The translation unit that builds the precompiled headers the other targets reuse
// (contactlab_use_precompiled_headers in CMakeLists.txt). It has no code of its own.
