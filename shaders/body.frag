#version 330 core
// Lambert + hemispheric ambient + soft Blinn-Phong specular in linear light, a shadow map with
// 3x3 PCF (or one bilinear tap), a 1 m grid on static surfaces, and a glow for the selected body.
// A software rasterizer (llvmpipe) runs every branch of this shader for every pixel, masked: a
// branch skips nothing there, only fewer operations do.
in vec3 vWorldPosition;
in vec3 vNormal;
flat in vec3 vAlbedo;  // linear

// Shadow-map taps per pixel, set by the renderer: 4, a 3x3 PCF; 1, one bilinear 2x2 comparison.
#ifndef SHADOW_TAPS
#define SHADOW_TAPS 4
#endif
flat in float vStyle;  // 0 dynamic, 1 selected, 2 static
in vec2 vStressScale;  // position on the stress scale, and its colour's weight (0: the instance colour)

// Texels of uStressScale, set by the renderer.
#ifndef STRESS_SCALE_TEXELS
#define STRESS_SCALE_TEXELS 256
#endif

uniform vec3 uLightDirection;  // unit, towards the light
uniform vec3 uEye;
uniform mat4 uLightViewProjection;
uniform sampler2DShadow uShadowMap;
uniform sampler1D uStressScale;    // the stress colour scale, sRGB, low to high
uniform float uShadowTexel;        // one shadow-map texel in texture coordinates
uniform float uShadowNormalOffset; // metres along the normal
uniform float uShadowDepthBias;    // in the shadow map's depth units
uniform int uShadows;
uniform int uGrid;
uniform vec3 uHorizonColor;  // sRGB, the sky's colour at the horizon
uniform vec2 uFogRange;      // distances from the eye where the fog starts and is complete

out vec4 fragColor;

const vec3 kLightColor = vec3(1.0, 0.96, 0.90) * 1.9;
const vec3 kSkyAmbient = vec3(0.34, 0.37, 0.43);
const vec3 kGroundAmbient = vec3(0.17, 0.16, 0.15);

vec3 toLinear(vec3 c) { return pow(c, vec3(2.2)); }

float lightVisibility(vec3 position, vec3 normal, float facing) {
  if (uShadows == 0) return 1.0;
  // Depth varies faster across the PCF footprint on surfaces at a grazing angle to the light.
  float slope = min(sqrt(max(1.0 - facing * facing, 0.0)) / max(facing, 1e-3), 4.0);
  float depthBias = uShadowDepthBias * (1.0 + slope);
  // Offset along the normal and in depth by a few texels' worth (the PCF footprint) to keep lit
  // surfaces free of acne.
  vec4 light = uLightViewProjection * vec4(position + normal * uShadowNormalOffset, 1.0);
  vec3 p = light.xyz / light.w * 0.5 + 0.5;
  if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
  // Each bilinear comparison (GL_LINEAR with a compare mode) averages 2x2 texels. Four taps half a
  // texel off centre tile a 3x3 block with tent weights; a single tap sits on the centre.
  const vec2 kCorners[4] = vec2[](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
  vec2 spread = vec2(SHADOW_TAPS > 1 ? 0.5 * uShadowTexel : 0.0);
  float reference = p.z - depthBias;
  float visible = 0.0;
  for (int i = 0; i < SHADOW_TAPS; ++i) visible += texture(uShadowMap, vec3(p.xy + kCorners[i] * spread, reference));
  return visible / float(SHADOW_TAPS);
}

// Coverage of 1 m grid lines on the plane facing the normal's dominant axis, anti-aliased with
// screen-space derivatives and faded where the lines get denser than the pixels.
float gridCoverage(vec3 position, vec3 normal) {
  vec3 a = abs(normal);
  vec2 uv = (a.z >= a.x && a.z >= a.y) ? position.xy : (a.x >= a.y ? position.yz : position.xz);
  vec2 width = max(fwidth(uv), vec2(1e-6));
  vec2 distanceInPixels = abs(fract(uv - 0.5) - 0.5) / width;
  float line = 1.0 - min(min(distanceInPixels.x, distanceInPixels.y), 1.0);
  float density = max(width.x, width.y);
  return line * (1.0 - smoothstep(0.08, 0.35, density));
}

void main() {
  vec3 normal = normalize(vNormal);
  vec3 toEye = normalize(uEye - vWorldPosition);
  bool isStatic = vStyle > 1.5;
  bool isSelected = vStyle > 0.5 && !isStatic;

  // The scale is looked up per pixel, so that colours between vertices stay on the scale.
  float scaleTexel = (0.5 + clamp(vStressScale.x, 0.0, 1.0) * float(STRESS_SCALE_TEXELS - 1)) / float(STRESS_SCALE_TEXELS);
  vec3 albedo = mix(vAlbedo, toLinear(texture(uStressScale, scaleTexel).rgb), vStressScale.y);
  if (isStatic && uGrid != 0) albedo = mix(albedo, toLinear(vec3(0.30, 0.32, 0.35)), 0.75 * gridCoverage(vWorldPosition, normal));

  float facing = dot(normal, uLightDirection);
  // Surfaces turned away from the light are unlit anyway: skip the shadow-map taps.
  float visibility = facing > 0.0 ? lightVisibility(vWorldPosition, normal, facing) : 0.0;
  float diffuse = max(facing, 0.0) * visibility;
  vec3 ambient = mix(kGroundAmbient, kSkyAmbient, 0.5 + 0.5 * normal.z);
  vec3 halfway = normalize(uLightDirection + toEye);
  float specular = pow(max(dot(normal, halfway), 0.0), 40.0) * (isStatic ? 0.05 : 0.25) * visibility;

  vec3 color = albedo * (ambient + kLightColor * diffuse) + kLightColor * specular;
  if (isSelected) {
    float rim = pow(1.0 - max(dot(normal, toEye), 0.0), 2.0);
    // Not over stress colours, which it would wash out; the outline box still marks the selection.
    color += vec3(1.0, 0.75, 0.25) * (0.15 + 0.9 * rim) * (1.0 - vStressScale.y);
  }
  // Soft roll-off instead of hard clipping of the brightest highlights.
  color = color / (1.0 + 0.15 * color);
  float fog = smoothstep(uFogRange.x, uFogRange.y, length(uEye - vWorldPosition));
  fragColor = vec4(mix(pow(color, vec3(1.0 / 2.2)), uHorizonColor, fog), 1.0);
}
