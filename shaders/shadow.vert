#version 330 core
// Depth-only pass from the light, using the same instanced meshes as body.vert.
layout(location = 0) in vec3 aPosition;
layout(location = 2) in mat4 aModel;  // locations 2..5

uniform mat4 uLightViewProjection;

void main() { gl_Position = uLightViewProjection * aModel * vec4(aPosition, 1.0); }
