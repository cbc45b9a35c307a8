#version 330 core
in vec4 vColor;

uniform float uAlpha;  // faint for the pass drawn through bodies

out vec4 fragColor;

void main() { fragColor = vec4(vColor.rgb, vColor.a * uAlpha); }
