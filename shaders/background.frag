#version 330 core
// A soft sky by elevation of the view ray: the horizon colour (which body.frag's distance fog
// also fades to, so the ground's far edge melts away) up to a muted blue-grey overhead.
in vec3 vViewDirection;

uniform vec3 uHorizonColor;

out vec4 fragColor;

void main() {
  float elevation = normalize(vViewDirection).z;
  vec3 zenith = vec3(0.50, 0.58, 0.69);
  fragColor = vec4(mix(uHorizonColor, zenith, smoothstep(0.0, 0.7, elevation)), 1.0);
}
