#version 300 es
// One boid: the static cone mesh (or another shape's, shapes.rs), placed and turned by one instance record.
// The cone's frame is built here from the velocity; the CPU builds no matrix.
precision highp float;

layout(location = 0) in vec3 a_vertex;     // the shape's mesh, pointing along +x, length 1
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_pos_kind;   // instance: position xyz, kind (0 boid, 1 hawk, 2 leader, 3 failed boid)
layout(location = 3) in vec4 a_vel_species;  // instance: velocity xyz, value (colour.rs)
layout(location = 4) in float a_paint;     // shapes.rs's Paint: 0 flock, 1 beak, 2 eye, 3 down

uniform mat4 u_view_proj;
uniform vec3 u_eye;
uniform float u_size;    // length of an ordinary boid, world units
uniform float u_cruise;  // cruise speed, world units per second
uniform float u_species; // how many species fly (1: colour by heading instead)
uniform int u_colour_by;   // colour.rs: 0 heading, 1 species, 2 speed, 3 neighbours, 4 rule
uniform float u_scale;     // neighbours: the count that gets the ramp's last colour
uniform vec2 u_speeds;     // speed: the slowest and fastest a boid flies (fractions of cruise)
uniform vec3 u_ramp[3];    // speed and neighbours: low, middle, high
uniform vec3 u_rules[4];   // rule: none, separation, alignment, cohesion
uniform int u_selected;    // the selected boid's instance, or -1
uniform float u_contrast;  // 1: the projector look (brighter, saturated, hardly fogged); 0: the usual


out vec3 v_normal;
out vec3 v_color;
out float v_distance;
flat out vec2 v_look;  // how much the fog fades a cone; 1 for the projector look's light

const float TAU = 6.28318530718;

// Hue wheel tuned for a dark background: no muddy or glaring corners.
// The projector look: the full wheel, saturated (the sky behind it is black).
vec3 hue(float t) {
    vec3 wave = cos(TAU * (t + vec3(0.0, 0.33, 0.67)));
    return u_contrast > 0.5 ? 0.55 + 0.45 * sign(wave) * sqrt(abs(wave)) : 0.58 + 0.42 * wave;
}

vec3 ramp(float t) {
    t = clamp(t, 0.0, 1.0);
    return t < 0.5 ? mix(u_ramp[0], u_ramp[1], 2.0 * t) : mix(u_ramp[1], u_ramp[2], 2.0 * t - 1.0);
}

void main() {
    vec3 velocity = a_vel_species.xyz;
    float speed = length(velocity);
    vec3 forward = speed > 1e-6 ? velocity / speed : vec3(1.0, 0.0, 0.0);
    // Any "up" not parallel to forward gives a frame: world up where it can (a bird's wings
    // and a fish's fins stay level as it turns), else +x; the cone is round, so roll is invisible.
    vec3 up = abs(forward.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 right = normalize(cross(forward, up));
    up = cross(right, forward);
    mat3 turn = mat3(forward, up, right);

    float kind = a_pos_kind.w;
    bool selected = gl_InstanceID == u_selected;
    bool failed = kind > 2.5;
    float size = u_size * (failed ? (selected ? 1.8 : 1.0) : kind > 1.5 ? 1.7 : kind > 0.5 ? 2.2 : selected ? 1.8 : 1.0);
    size *= u_contrast > 0.5 ? 1.3 : 1.0;  // the projector look: cones 30 % larger
    vec3 world = a_pos_kind.xyz + turn * (a_vertex * size);
    gl_Position = u_view_proj * vec4(world, 1.0);

    v_normal = turn * a_normal;
    v_distance = distance(world, u_eye);

    float value = a_vel_species.w;
    float relative = u_cruise > 0.0 ? speed / u_cruise : 1.0;
    vec3 color;
    if (u_colour_by == 1) {
        color = hue(value / 4.0 + 0.08);
    } else if (u_colour_by == 2) {
        color = ramp((relative - u_speeds.x) / (u_speeds.y - u_speeds.x));
    } else if (u_colour_by == 3) {
        color = ramp(value / u_scale);
    } else if (u_colour_by == 4) {
        color = u_rules[int(clamp(value, 0.0, 3.0) + 0.5)];
    } else {
        // Colour by heading (compass direction in the horizontal plane), so boids that fly
        // together share a colour; climbing boids are lighter, diving ones deeper, and slow
        // boids a little greyer.
        float compass = atan(forward.z, forward.x) / TAU + 0.5;
        // Several species: each its own colour (well apart on the wheel), so the flocks that
        // share the sky stay tellable apart; heading still shades them a little.
        color = u_species > 1.5 ? mix(hue(value / 4.0 + 0.08), hue(compass), 0.15) : hue(compass);
        color = mix(color, vec3(1.0), 0.25 * max(forward.y, 0.0));
        color *= 1.0 - 0.3 * max(-forward.y, 0.0);
        color = mix(vec3(dot(color, vec3(0.3, 0.5, 0.2))), color, clamp(0.4 + 0.6 * relative, 0.0, 1.0));
    }
    // The chick's down: yellow, a tenth of it the mode's colour (a hint of heading,
    // species, speed on a flock of chicks; a quarter turned the yellow orange).
    if (a_paint > 2.5) color = mix(vec3(1.0, 0.88, 0.2), color, 0.1);
    // A failed member of a swarm: slate grey whatever the mode, told apart from the working.
    if (failed) color = vec3(0.42, 0.44, 0.5);
    // The selected boid: bright, and larger (above), whatever the mode.
    color = selected ? vec3(1.0, 0.97, 0.75) : color;
    v_look = u_contrast > 0.5 ? vec2(0.25, 1.0) : vec2(0.78, 0.0);
    v_color = failed ? color : kind > 1.5 ? vec3(1.0, 0.82, 0.3) : kind > 0.5 ? vec3(0.95, 0.18, 0.14) : color;
    // A beak and eyes keep their colours, whoever wears them.
    v_color = a_paint > 2.5 ? v_color : a_paint > 1.5 ? vec3(0.06, 0.05, 0.05) : a_paint > 0.5 ? vec3(1.0, 0.4, 0.05) : v_color;
}
