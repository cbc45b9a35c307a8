#version 330 core
// Depth only: the shadow map has no colour attachment.
void main() {}
