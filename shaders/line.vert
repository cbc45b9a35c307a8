#version 330 core
// Debug overlay: contact points (GL_POINTS, squares of a given pixel size) and segments (GL_LINES).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec4 aColor;
layout(location = 2) in float aSizePixels;

uniform mat4 uViewProjection;

out vec4 vColor;

void main() {
  vColor = aColor;
  gl_PointSize = aSizePixels;
  gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
