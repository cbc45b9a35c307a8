#version 330 core
// One triangle covering the screen, made from the vertex index (no vertex buffer).
uniform mat4 uInverseViewProjection;

out vec3 vViewDirection;

void main() {
  vec2 corner = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
  vec4 nearPoint = uInverseViewProjection * vec4(corner, -1.0, 1.0);
  vec4 farPoint = uInverseViewProjection * vec4(corner, 1.0, 1.0);
  vViewDirection = farPoint.xyz / farPoint.w - nearPoint.xyz / nearPoint.w;
  gl_Position = vec4(corner, 1.0, 1.0);
}
