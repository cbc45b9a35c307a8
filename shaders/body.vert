#version 330 core
// Instanced unit meshes (cube, sphere, cylinder, quad) placed by a per-instance model matrix.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 aModel;  // locations 2..5
layout(location = 6) in vec4 aColor;
layout(location = 7) in float aStyle;
// Deformable surfaces coloured by stress: the vertex's position on the stress scale and the scale
// colour's weight; (0, 0), the attribute's default, elsewhere.
layout(location = 8) in vec2 aStressScale;

uniform mat4 uViewProjection;

out vec3 vWorldPosition;
out vec3 vNormal;
flat out vec3 vAlbedo;  // the instance's sRGB colour in linear light
flat out float vStyle;
out vec2 vStressScale;

void main() {
  vec4 world = aModel * vec4(aPosition, 1.0);
  // The model is rotation * scale, so the normal matrix R S^-1 equals M S^-2: divide by the
  // squared column lengths instead of inverting per vertex.
  mat3 linear = mat3(aModel);
  vec3 inverseScaleSquared = 1.0 / vec3(dot(linear[0], linear[0]), dot(linear[1], linear[1]), dot(linear[2], linear[2]));
  vNormal = linear * (aNormal * inverseScaleSquared);
  vWorldPosition = world.xyz;
  vAlbedo = pow(aColor.rgb, vec3(2.2));
  vStyle = aStyle;
  vStressScale = aStressScale;
  gl_Position = uViewProjection * world;
}
