// trinav view: the page. It loads the mesh geometry once (GET /api/mesh), draws it with WebGL 2
// (or a 2D canvas when WebGL is unavailable, or with ?renderer=canvas), and asks the server
// for queries (POST /api/path, /api/raycast, /api/locate). Overlays (hover, paths, ray) are
// drawn on a second, transparent 2D canvas above the mesh.
//
// Coordinates: world units (y up) on the server; CSS pixels of the stage (y down) for the
// pointer; the camera maps one to the other. Vertex positions go to the GPU as float32
// relative to the mesh's centre, so meshes far from the origin keep their precision.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(window.location.search);

  const EDGE_COLOUR = [0.56, 0.56, 0.56, 0.7];
  const BOUNDARY_COLOUR = [0.12, 0.12, 0.12, 1];
  const BOUNDARY_WIDTH = 2.5; // CSS pixels
  const PATH_STYLE = {
    fast: { colour: '#ff9f1c', width: 6 },
    optimal: { colour: '#d62728', width: 3 },
  };
  const CLICK_SLOP = 4; // pixels a press may move and still be a click

  // ---- The API ----

  /** GET (no body) or POST a JSON body; the answer, or an Error with the server's message. */
  async function api(path, body) {
    const init = body === undefined ? {} : {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    };
    const response = await fetch(path, init);
    let answer;
    try {
      answer = await response.json();
    } catch (e) {
      throw new Error(`${path}: HTTP ${response.status}, not JSON`);
    }
    if (!response.ok) throw new Error(answer.error || `${path}: HTTP ${response.status}`);
    return answer;
  }

  // ---- The camera: world to stage pixels ----

  class Camera {
    constructor() {
      this.cx = 0; this.cy = 0; this.scale = 1; this.width = 1; this.height = 1;
    }
    toScreen(x, y) {
      return [(x - this.cx) * this.scale + this.width / 2, this.height / 2 - (y - this.cy) * this.scale];
    }
    toWorld(px, py) {
      return [(px - this.width / 2) / this.scale + this.cx, this.cy - (py - this.height / 2) / this.scale];
    }
    /** Shows `bounds` ([min x, min y, max x, max y]) whole, with a margin. */
    fit(bounds) {
      const w = Math.max(bounds[2] - bounds[0], 1e-9);
      const h = Math.max(bounds[3] - bounds[1], 1e-9);
      this.cx = (bounds[0] + bounds[2]) / 2;
      this.cy = (bounds[1] + bounds[3]) / 2;
      this.scale = 0.92 * Math.min(this.width / w, this.height / h);
    }
    /** Zooms by `factor`, keeping the world point under (px, py) in place. */
    zoomAt(px, py, factor) {
      const [wx, wy] = this.toWorld(px, py);
      this.scale = Math.min(Math.max(this.scale * factor, 1e-12), 1e12);
      this.cx = wx - (px - this.width / 2) / this.scale;
      this.cy = wy + (py - this.height / 2) / this.scale;
    }
    pan(dx, dy) {
      this.cx -= dx / this.scale;
      this.cy += dy / this.scale;
    }
  }

  // ---- Colours ----

  function hexColour(hex) {
    const v = parseInt(hex.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }

  function hslColour(h, s, l) {
    const c = (1 - Math.abs(2 * l - 1)) * s;
    const hp = h / 60;
    const x = c * (1 - Math.abs((hp % 2) - 1));
    const [r, g, b] = [[c, x, 0], [x, c, 0], [0, c, x], [0, x, c], [x, 0, c], [c, 0, x]][Math.floor(hp) % 6];
    const m = l - c / 2;
    return [r, g, b].map((v) => Math.round((v + m) * 255));
  }

  /** Area type `id`'s fill: hues spread by the golden angle. */
  function areaColour(id) {
    return hslColour((id * 137.508 + 200) % 360, 0.55, 0.8);
  }

  /** One [r, g, b] per triangle for the colouring `by` ('island' or 'area'). */
  function triangleColours(mesh, by) {
    const islandRgb = mesh.island_colours.map(hexColour);
    const out = new Array(mesh.n);
    for (let t = 0; t < mesh.n; t++) {
      out[t] = by === 'area' ? areaColour(mesh.areas[t]) : islandRgb[mesh.islands[t]];
    }
    return out;
  }

  const cssColour = ([r, g, b]) => `rgb(${r},${g},${b})`;

  // ---- Renderers: draw(camera, options), setColours(colours) ----

  /** WebGL 2: every triangle in one draw call, edges as lines, boundary as wide quads. */
  class GlRenderer {
    constructor(canvas, mesh) {
      const gl = canvas.getContext('webgl2', { antialias: true, alpha: false });
      if (!gl) throw new Error('WebGL 2 is unavailable');
      this.gl = gl;
      this.canvas = canvas;
      this.mesh = mesh;
      this.name = 'WebGL 2';
      const flat = `#version 300 es
        in vec2 a_pos; in vec4 a_colour;
        uniform vec2 u_centre; uniform vec2 u_scale;
        out vec4 v_colour;
        void main() { gl_Position = vec4((a_pos - u_centre) * u_scale, 0.0, 1.0); v_colour = a_colour; }`;
      const wide = `#version 300 es
        in vec2 a_a; in vec2 a_b; in vec2 a_corner;
        uniform vec2 u_centre; uniform vec2 u_scale; uniform vec2 u_half; uniform float u_width;
        void main() {
          vec2 pa = (a_a - u_centre) * u_scale * u_half;
          vec2 pb = (a_b - u_centre) * u_scale * u_half;
          vec2 d = pb - pa;
          float len = length(d);
          vec2 dir = len > 0.0 ? d / len : vec2(1.0, 0.0);
          vec2 normal = vec2(-dir.y, dir.x);
          vec2 p = mix(pa, pb, a_corner.x)
            + (normal * a_corner.y + dir * (2.0 * a_corner.x - 1.0)) * (0.5 * u_width);
          gl_Position = vec4(p / u_half, 0.0, 1.0);
        }`;
      const colourFragment = `#version 300 es
        precision mediump float; in vec4 v_colour; out vec4 colour;
        void main() { colour = v_colour; }`;
      const uniformFragment = `#version 300 es
        precision mediump float; uniform vec4 u_colour; out vec4 colour;
        void main() { colour = u_colour; }`;
      this.flat = this.program(flat, colourFragment);
      this.wide = this.program(wide, uniformFragment);
      this.build();
    }

    program(vertexSource, fragmentSource) {
      const gl = this.gl;
      const program = gl.createProgram();
      for (const [type, source] of [[gl.VERTEX_SHADER, vertexSource], [gl.FRAGMENT_SHADER, fragmentSource]]) {
        const shader = gl.createShader(type);
        gl.shaderSource(shader, source);
        gl.compileShader(shader);
        if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
        gl.attachShader(program, shader);
      }
      gl.linkProgram(program);
      if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
      const uniforms = {};
      const count = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
      for (let i = 0; i < count; i++) {
        const name = gl.getActiveUniform(program, i).name;
        uniforms[name] = gl.getUniformLocation(program, name);
      }
      return { program, uniforms, attribute: (name) => gl.getAttribLocation(program, name) };
    }

    /** A vertex array over `data` with `layout` [[attribute, size], ...] (floats, interleaved). */
    vertexArray(program, data, layout) {
      const gl = this.gl;
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      const stride = layout.reduce((sum, [, size]) => sum + size, 0) * 4;
      let offset = 0;
      for (const [name, size] of layout) {
        const location = program.attribute(name);
        gl.enableVertexAttribArray(location);
        gl.vertexAttribPointer(location, size, gl.FLOAT, false, stride, offset);
        offset += size * 4;
      }
      gl.bindVertexArray(null);
      return vao;
    }

    build() {
      const gl = this.gl;
      const m = this.mesh;
      const [ox, oy] = m.centre;
      const v = m.vertices;
      // Triangles: three vertices each, unindexed, so each carries its triangle's colour.
      const positions = new Float32Array(6 * m.n);
      for (let i = 0; i < 3 * m.n; i++) {
        const k = m.triangles[i];
        positions[2 * i] = v[2 * k] - ox;
        positions[2 * i + 1] = v[2 * k + 1] - oy;
      }
      this.fill = gl.createVertexArray();
      gl.bindVertexArray(this.fill);
      const positionBuffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, positionBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, positions, gl.STATIC_DRAW);
      const at = this.flat.attribute('a_pos');
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
      this.colourBuffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colourBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, 12 * m.n, gl.STATIC_DRAW);
      const ac = this.flat.attribute('a_colour');
      gl.enableVertexAttribArray(ac);
      gl.vertexAttribPointer(ac, 4, gl.UNSIGNED_BYTE, true, 0, 0);
      gl.bindVertexArray(null);

      // Interior edges (each once) as lines; boundary edges as quads of two triangles.
      const edges = [];
      const boundary = [];
      for (let t = 0; t < m.n; t++) {
        for (let e = 0; e < 3; e++) {
          const a = m.triangles[3 * t + e];
          const b = m.triangles[3 * t + ((e + 1) % 3)];
          const neighbour = m.neighbours[3 * t + e];
          const [ax, ay, bx, by] = [v[2 * a] - ox, v[2 * a + 1] - oy, v[2 * b] - ox, v[2 * b + 1] - oy];
          if (neighbour < 0) {
            for (const [s, side] of [[0, -1], [0, 1], [1, 1], [0, -1], [1, 1], [1, -1]]) {
              boundary.push(ax, ay, bx, by, s, side);
            }
          } else if (neighbour > t) {
            edges.push(ax, ay, bx, by);
          }
        }
      }
      // Edge lines reuse the flat program with a constant colour attribute.
      this.edgeCount = edges.length / 2;
      this.edges = gl.createVertexArray();
      gl.bindVertexArray(this.edges);
      const edgeBuffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, edgeBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(edges), gl.STATIC_DRAW);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
      gl.disableVertexAttribArray(ac);
      gl.bindVertexArray(null);
      this.boundaryCount = boundary.length / 6;
      this.boundary = this.vertexArray(this.wide, new Float32Array(boundary),
        [['a_a', 2], ['a_b', 2], ['a_corner', 2]]);
    }

    setColours(colours) {
      const gl = this.gl;
      const bytes = new Uint8Array(12 * this.mesh.n);
      for (let t = 0; t < this.mesh.n; t++) {
        const [r, g, b] = colours[t];
        for (let k = 0; k < 3; k++) bytes.set([r, g, b, 255], 12 * t + 4 * k);
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colourBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, bytes);
    }

    draw(camera, options) {
      const gl = this.gl;
      const dpr = window.devicePixelRatio || 1;
      gl.viewport(0, 0, this.canvas.width, this.canvas.height);
      gl.clearColor(1, 1, 1, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      const centre = [camera.cx - this.mesh.centre[0], camera.cy - this.mesh.centre[1]];
      const scale = [2 * camera.scale / camera.width, 2 * camera.scale / camera.height];

      gl.useProgram(this.flat.program);
      gl.uniform2fv(this.flat.uniforms.u_centre, centre);
      gl.uniform2fv(this.flat.uniforms.u_scale, scale);
      gl.bindVertexArray(this.fill);
      gl.drawArrays(gl.TRIANGLES, 0, 3 * this.mesh.n);
      if (options.edges && this.edgeCount > 0) {
        gl.bindVertexArray(this.edges);
        gl.vertexAttrib4fv(this.flat.attribute('a_colour'), EDGE_COLOUR);
        gl.drawArrays(gl.LINES, 0, this.edgeCount);
      }
      if (this.boundaryCount > 0) {
        gl.useProgram(this.wide.program);
        gl.uniform2fv(this.wide.uniforms.u_centre, centre);
        gl.uniform2fv(this.wide.uniforms.u_scale, scale);
        gl.uniform2fv(this.wide.uniforms.u_half, [this.canvas.width / 2, this.canvas.height / 2]);
        gl.uniform1f(this.wide.uniforms.u_width, BOUNDARY_WIDTH * dpr);
        gl.uniform4fv(this.wide.uniforms.u_colour, BOUNDARY_COLOUR);
        gl.bindVertexArray(this.boundary);
        gl.drawArrays(gl.TRIANGLES, 0, this.boundaryCount);
      }
      gl.bindVertexArray(null);
    }
  }

  /** 2D canvas: one Path2D per fill colour, one for the edges, one for the boundary. */
  class CanvasRenderer {
    constructor(canvas, mesh) {
      const ctx = canvas.getContext('2d', { alpha: false });
      if (!ctx) throw new Error('no 2D canvas');
      this.ctx = ctx;
      this.canvas = canvas;
      this.mesh = mesh;
      this.name = '2D canvas';
      const m = mesh;
      const [ox, oy] = m.centre;
      const v = m.vertices;
      this.edges = new Path2D();
      this.boundary = new Path2D();
      for (let t = 0; t < m.n; t++) {
        for (let e = 0; e < 3; e++) {
          const a = m.triangles[3 * t + e];
          const b = m.triangles[3 * t + ((e + 1) % 3)];
          const neighbour = m.neighbours[3 * t + e];
          if (neighbour >= 0 && neighbour < t) continue;
          const path = neighbour < 0 ? this.boundary : this.edges;
          path.moveTo(v[2 * a] - ox, v[2 * a + 1] - oy);
          path.lineTo(v[2 * b] - ox, v[2 * b + 1] - oy);
        }
      }
    }

    setColours(colours) {
      const m = this.mesh;
      const [ox, oy] = m.centre;
      const v = m.vertices;
      const fills = new Map();
      for (let t = 0; t < m.n; t++) {
        const key = cssColour(colours[t]);
        let path = fills.get(key);
        if (!path) fills.set(key, (path = new Path2D()));
        const [a, b, c] = [m.triangles[3 * t], m.triangles[3 * t + 1], m.triangles[3 * t + 2]];
        path.moveTo(v[2 * a] - ox, v[2 * a + 1] - oy);
        path.lineTo(v[2 * b] - ox, v[2 * b + 1] - oy);
        path.lineTo(v[2 * c] - ox, v[2 * c + 1] - oy);
        path.closePath();
      }
      this.fills = fills;
    }

    draw(camera, options) {
      const ctx = this.ctx;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
      const s = camera.scale * dpr;
      ctx.setTransform(s, 0, 0, -s,
        (camera.width / 2 - (camera.cx - this.mesh.centre[0]) * camera.scale) * dpr,
        (camera.height / 2 + (camera.cy - this.mesh.centre[1]) * camera.scale) * dpr);
      for (const [colour, path] of this.fills) {
        ctx.fillStyle = colour;
        ctx.fill(path);
      }
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      if (options.edges) {
        ctx.strokeStyle = `rgba(143,143,143,${EDGE_COLOUR[3]})`;
        ctx.lineWidth = dpr / s;
        ctx.stroke(this.edges);
      }
      ctx.strokeStyle = cssColour(BOUNDARY_COLOUR.slice(0, 3).map((c) => c * 255));
      ctx.lineWidth = (BOUNDARY_WIDTH * dpr) / s;
      ctx.stroke(this.boundary);
    }
  }

  // ---- The viewer ----

  const camera = new Camera();
  const state = {
    mesh: null,
    renderer: null,
    colourBy: 'island',
    start: null, // [x, y]
    goal: null,
    paths: {}, // mode -> answer
    pathQuery: 0, // sequence number: answers of older queries are dropped
    ray: null, // { from, to, answer }
    hover: null, // /api/locate answer
    hoverPending: null,
    hoverInFlight: false,
    drawPending: false,
    frameObserver: null,
  };
  const stage = $('stage');
  const meshCanvas = $('mesh');
  const overlay = $('overlay');
  const overlayCtx = overlay.getContext('2d');

  function showError(message) {
    $('error').textContent = message || '';
  }

  /** The mean edge length of a triangle on screen, in pixels (edges are drawn above 3). */
  function meanTrianglePixels() {
    const m = state.mesh;
    return m.n > 0 ? Math.sqrt(m.stats.area / m.n) * camera.scale : 0;
  }

  function drawNow() {
    if (!state.renderer) return;
    const edges = $('edges').checked && meanTrianglePixels() > 3;
    state.renderer.draw(camera, { edges });
    drawOverlay();
  }

  function requestDraw() {
    if (state.drawPending) return;
    state.drawPending = true;
    window.requestAnimationFrame(() => {
      state.drawPending = false;
      drawNow();
    });
  }

  function drawOverlay() {
    const ctx = overlayCtx;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    const screen = (p) => camera.toScreen(p[0], p[1]);
    const polyline = (points) => {
      ctx.beginPath();
      points.forEach((p, i) => {
        const [x, y] = screen(p);
        if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
      });
    };
    const marker = (p, fill, radius = 6) => {
      const [x, y] = screen(p);
      ctx.beginPath();
      ctx.arc(x, y, radius, 0, 2 * Math.PI);
      ctx.fillStyle = fill;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#ffffff';
      ctx.stroke();
    };
    const dashed = (a, b, colour) => {
      ctx.setLineDash([5, 4]);
      polyline([a, b]);
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
    };

    const hover = state.hover;
    if (hover && hover.corners) {
      polyline(hover.corners);
      ctx.closePath();
      ctx.fillStyle = hover.on_mesh ? 'rgba(31,79,168,0.18)' : 'rgba(120,120,120,0.15)';
      ctx.fill();
      ctx.strokeStyle = '#1f4fa8';
      ctx.lineWidth = 1.5;
      ctx.stroke();
      if (!hover.on_mesh) marker(hover.nearest, '#1f4fa8', 3);
    }

    for (const mode of ['fast', 'optimal']) {
      const answer = state.paths[mode];
      if (!answer || !answer.found || answer.points.length < 2) continue;
      const style = PATH_STYLE[mode];
      polyline(answer.points);
      ctx.strokeStyle = 'rgba(255,255,255,0.85)';
      ctx.lineWidth = style.width + 3;
      ctx.stroke();
      ctx.strokeStyle = style.colour;
      ctx.lineWidth = style.width;
      ctx.stroke();
    }
    const reached = state.paths.optimal || state.paths.fast;
    if (state.start) {
      const at = reached && reached.found ? reached.points[0] : state.start;
      if (at[0] !== state.start[0] || at[1] !== state.start[1]) dashed(state.start, at, '#444444');
      marker(at, '#2ca02c');
    }
    if (state.goal) {
      const points = reached && reached.found ? reached.points : null;
      const at = points ? points[points.length - 1] : state.goal;
      if (at[0] !== state.goal[0] || at[1] !== state.goal[1]) dashed(state.goal, at, '#444444');
      marker(at, '#1f4fa8');
    }

    const ray = state.ray;
    if (ray) {
      if (ray.answer) {
        polyline([ray.from, ray.answer.end]);
        ctx.strokeStyle = '#7b2cbf';
        ctx.lineWidth = 2.5;
        ctx.stroke();
        if (!ray.answer.clear) {
          dashed(ray.answer.end, ray.to, '#7b2cbf');
          marker(ray.answer.end, '#d62728', 5);
        }
      }
      marker(ray.from, '#7b2cbf', 5);
    }
  }

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const width = stage.clientWidth;
    const height = stage.clientHeight;
    for (const canvas of [meshCanvas, overlay]) {
      canvas.width = Math.max(1, Math.round(width * dpr));
      canvas.height = Math.max(1, Math.round(height * dpr));
    }
    camera.width = Math.max(1, width);
    camera.height = Math.max(1, height);
    drawNow();
  }

  // ---- Panel ----

  const fmt = (v, digits = 3) => (Number.isInteger(v) ? String(v) : v.toFixed(digits));
  const pointText = (p) => `(${fmt(p[0])}, ${fmt(p[1])})`;

  function showMesh(m) {
    const origin = m.origin;
    $('file').textContent = `${origin.file} (${origin.baked ? 'baked on the fly' : 'mesh file'}, ` +
      `${origin.load_ms.toFixed(1)} ms)`;
    document.title = `trinav view: ${origin.file}`;
    const rows = [
      ['triangles', m.stats.triangles], ['vertices', m.stats.vertices], ['islands', m.stats.islands],
      ['area', fmt(m.stats.area)], ['boundary edges', m.stats.boundary_edges],
      ['smallest angle', `${m.stats.min_angle_deg.toFixed(3)}°`],
      ['bounds', `${pointText(m.bounds.slice(0, 2))} – ${pointText(m.bounds.slice(2))}`],
      ['agent radius', m.settings.agent_radius], ['triangulation', m.settings.triangulation],
    ];
    const stats = $('stats');
    stats.replaceChildren();
    for (const [name, value] of rows) {
      const dt = document.createElement('dt');
      dt.textContent = name;
      const dd = document.createElement('dd');
      dd.textContent = String(value);
      dd.dataset.stat = name;
      stats.append(dt, dd);
    }
    const layer = $('layer');
    layer.replaceChildren(...m.layers.map((l) => new Option(`${l.name} (${l.triangles} triangles)`, l.id)));
    layer.disabled = m.layers.length < 2;
    const areaOption = $('colour-by').querySelector('option[value="area"]');
    const distinctAreas = new Set(m.areas).size;
    areaOption.disabled = distinctAreas < 2;
    areaOption.textContent = distinctAreas < 2 ? 'area type (all one type)' : `area type (${distinctAreas})`;
  }

  function showHover() {
    const h = state.hover;
    const el = $('hover');
    if (!h || h.triangle === null) {
      el.textContent = 'Off the mesh.';
      return;
    }
    const where = h.on_mesh ? `at ${pointText(h.nearest)}` :
      `off the mesh; nearest walkable point ${pointText(h.nearest)} at distance ${fmt(h.distance)}`;
    el.textContent = `triangle ${h.triangle}, island ${h.island}, area ${h.area} ${where}`;
    el.dataset.triangle = h.triangle;
    el.dataset.island = h.island;
    el.dataset.area = h.area;
  }

  function showPoint(el, p, empty) {
    if (!p) {
      el.textContent = empty;
      delete el.dataset.x;
      delete el.dataset.y;
      return;
    }
    el.textContent = pointText(p);
    el.dataset.x = String(p[0]);
    el.dataset.y = String(p[1]);
  }

  function showPaths() {
    showPoint($('start'), state.start, 'click the mesh');
    showPoint($('goal'), state.goal, state.start ? 'click again' : '');
    let note = '';
    for (const mode of ['fast', 'optimal']) {
      const row = $(`path-${mode}`);
      const answer = state.paths[mode];
      const cell = (name, text, value) => {
        const td = row.querySelector(`.${name}`);
        td.textContent = text;
        if (value === undefined) delete td.dataset.value; else td.dataset.value = String(value);
      };
      if (!answer) {
        cell('length', state.goal ? '…' : '–');
        cell('points', '–');
        cell('time', '–');
        continue;
      }
      if (answer.found) {
        cell('length', fmt(answer.length), answer.length);
        cell('points', String(answer.points.length), answer.points.length);
      } else {
        cell('length', 'no path');
        cell('points', '–');
        note = `No path: ${answer.reason}` +
          (answer.start_island !== null && answer.goal_island !== null ?
            ` (start on island ${answer.start_island}, goal on island ${answer.goal_island})` : '');
      }
      cell('time', `${answer.query_us.toFixed(1)} µs`, answer.query_us);
      row.querySelector('.time').title = `median of ${answer.runs} runs`;
    }
    $('path-note').textContent = note;
  }

  function showRay() {
    const ray = state.ray;
    const el = $('ray');
    if (!ray) {
      el.textContent = "Shift+click to set the ray's origin, Shift+click again to cast it.";
      delete el.dataset.clear;
      return;
    }
    if (!ray.answer) {
      el.textContent = `Origin ${pointText(ray.from)}; Shift+click the target.`;
      delete el.dataset.clear;
      return;
    }
    const a = ray.answer;
    el.textContent = a.clear ?
      `Clear from ${pointText(ray.from)} to ${pointText(a.end)}` :
      `Blocked at ${pointText(a.end)} (fraction ${a.fraction.toFixed(4)}, triangle ${a.triangle}, edge ${a.edge})`;
    el.textContent += `; ${a.query_us.toFixed(2)} µs`;
    el.dataset.clear = String(a.clear);
    el.dataset.endX = String(a.end[0]);
    el.dataset.endY = String(a.end[1]);
  }

  // ---- Queries ----

  async function queryPaths() {
    const query = ++state.pathQuery;
    const [from, to] = [state.start, state.goal];
    state.paths = {};
    showPaths();
    await Promise.all(state.mesh.path_modes.map(async (mode) => {
      try {
        const answer = await api('/api/path', { from, to, mode, snap: true });
        if (query !== state.pathQuery) return;
        state.paths[mode] = answer;
        showError('');
      } catch (e) {
        if (query === state.pathQuery) showError(e.message);
      }
      showPaths();
      requestDraw();
    }));
  }

  async function castRay() {
    const ray = state.ray;
    try {
      ray.answer = await api('/api/raycast', { from: ray.from, to: ray.to });
      showError('');
    } catch (e) {
      showError(e.message);
      state.ray = null;
    }
    showRay();
    requestDraw();
  }

  function hoverAt(p) {
    state.hoverPending = p;
    if (state.hoverInFlight) return;
    const next = async () => {
      const point = state.hoverPending;
      state.hoverPending = null;
      state.hoverInFlight = true;
      try {
        state.hover = await api('/api/locate', { point });
        showHover();
        requestDraw();
      } catch (e) {
        showError(e.message);
      }
      state.hoverInFlight = false;
      if (state.hoverPending) next();
    };
    next();
  }

  function clickAt(px, py, shift) {
    const p = camera.toWorld(px, py);
    if (shift) {
      if (!state.ray || state.ray.answer) {
        state.ray = { from: p, to: null, answer: null };
        showRay();
        requestDraw();
      } else {
        state.ray.to = p;
        castRay();
      }
      return;
    }
    if (!state.start || state.goal) {
      state.start = p;
      state.goal = null;
      state.paths = {};
      state.pathQuery++;
      showPaths();
      requestDraw();
    } else {
      state.goal = p;
      queryPaths();
    }
  }

  function clearQueries() {
    state.start = state.goal = state.ray = null;
    state.paths = {};
    state.pathQuery++;
    showPaths();
    showRay();
    showError('');
    requestDraw();
  }

  // ---- Input ----

  function stagePoint(event) {
    const rect = overlay.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  function listen() {
    let press = null;
    overlay.addEventListener('pointerdown', (event) => {
      if (event.button !== 0) return;
      const [x, y] = stagePoint(event);
      press = { x, y, lastX: x, lastY: y, moved: false };
      overlay.setPointerCapture(event.pointerId);
    });
    overlay.addEventListener('pointermove', (event) => {
      const [x, y] = stagePoint(event);
      if (press) {
        if (!press.moved && Math.hypot(x - press.x, y - press.y) > CLICK_SLOP) {
          press.moved = true;
          overlay.classList.add('panning');
        }
        if (press.moved) {
          camera.pan(x - press.lastX, y - press.lastY);
          press.lastX = x;
          press.lastY = y;
          requestDraw();
        }
        return;
      }
      hoverAt(camera.toWorld(x, y));
    });
    const release = (event) => {
      if (!press) return;
      const wasClick = !press.moved && event.type === 'pointerup';
      press = null;
      overlay.classList.remove('panning');
      if (wasClick) {
        const [x, y] = stagePoint(event);
        clickAt(x, y, event.shiftKey);
      }
    };
    overlay.addEventListener('pointerup', release);
    overlay.addEventListener('pointercancel', release);
    overlay.addEventListener('wheel', (event) => {
      event.preventDefault();
      const [x, y] = stagePoint(event);
      const pixels = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      camera.zoomAt(x, y, Math.exp(-pixels * 0.0015));
      requestDraw();
    }, { passive: false });
    window.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
      const centre = [camera.width / 2, camera.height / 2];
      if (event.key === 'f' || event.key === 'F') camera.fit(state.mesh.bounds);
      else if (event.key === '+' || event.key === '=') camera.zoomAt(...centre, 1.25);
      else if (event.key === '-') camera.zoomAt(...centre, 0.8);
      else if (event.key === 'Escape') clearQueries();
      else return;
      requestDraw();
    });
    $('fit').addEventListener('click', () => {
      camera.fit(state.mesh.bounds);
      requestDraw();
    });
    $('clear').addEventListener('click', clearQueries);
    $('edges').addEventListener('change', requestDraw);
    $('colour-by').addEventListener('change', (event) => {
      state.colourBy = event.target.value;
      state.renderer.setColours(triangleColours(state.mesh, state.colourBy));
      requestDraw();
    });
    new ResizeObserver(resize).observe(stage);
  }

  // ---- Frame timing (used by the tests, available from the console) ----

  /**
   * Pans and zooms for `frames` animation frames, drawing each, and resolves to the
   * requestAnimationFrame intervals: { renderer, triangles, frames, median_ms, p95_ms, max_ms,
   * mean_ms, fps } (fps from the mean interval).
   */
  function measureFrames(frames = 120) {
    const home = { cx: camera.cx, cy: camera.cy, scale: camera.scale };
    const m = state.mesh;
    const span = Math.max(m.bounds[2] - m.bounds[0], m.bounds[3] - m.bounds[1]);
    const stamps = [];
    return new Promise((resolve) => {
      const frame = (time) => {
        const i = stamps.length;
        stamps.push(time);
        const phase = (2 * Math.PI * i) / 60;
        camera.cx = home.cx + 0.05 * span * Math.cos(phase);
        camera.cy = home.cy + 0.05 * span * Math.sin(phase);
        camera.scale = home.scale * (1.2 + 0.3 * Math.sin(phase / 2));
        drawNow();
        if (stamps.length <= frames) {
          window.requestAnimationFrame(frame);
          return;
        }
        Object.assign(camera, home);
        drawNow();
        const intervals = stamps.slice(1).map((t, k) => t - stamps[k]).sort((a, b) => a - b);
        const mean = intervals.reduce((s, v) => s + v, 0) / intervals.length;
        resolve({
          renderer: state.renderer.name,
          triangles: m.n,
          frames: intervals.length,
          median_ms: intervals[Math.floor(intervals.length / 2)],
          p95_ms: intervals[Math.floor(intervals.length * 0.95)],
          max_ms: intervals[intervals.length - 1],
          mean_ms: mean,
          fps: 1000 / mean,
        });
      };
      window.requestAnimationFrame(frame);
    });
  }

  // ---- Start ----

  function createRenderer(m) {
    const wanted = params.get('renderer');
    if (wanted !== 'canvas') {
      try {
        return new GlRenderer(meshCanvas, m);
      } catch (e) {
        if (wanted === 'webgl') throw e;
        console.warn(`trinav view: ${e.message}; drawing with a 2D canvas`);
      }
    }
    return new CanvasRenderer(meshCanvas, m);
  }

  async function start() {
    listen();
    let m;
    try {
      m = await api('/api/mesh');
    } catch (e) {
      $('loading').textContent = `Cannot load the mesh: ${e.message}`;
      return;
    }
    m.n = m.triangles.length / 3;
    m.centre = [(m.bounds[0] + m.bounds[2]) / 2, (m.bounds[1] + m.bounds[3]) / 2];
    state.mesh = m;
    showMesh(m);
    try {
      state.renderer = createRenderer(m);
    } catch (e) {
      $('loading').textContent = `Cannot draw: ${e.message}`;
      return;
    }
    state.renderer.setColours(triangleColours(m, state.colourBy));
    $('renderer').textContent = `Drawn with ${state.renderer.name}.`;
    $('loading').classList.add('hidden');
    resize();
    camera.fit(m.bounds);
    drawNow();
    showPaths();
    showRay();
    document.body.dataset.state = 'ready';
  }

  window.trinavView = {
    camera,
    state,
    measureFrames,
    /** The page (client) coordinates of world point (x, y). */
    worldToClient(x, y) {
      const rect = overlay.getBoundingClientRect();
      const [px, py] = camera.toScreen(x, y);
      return [rect.left + px, rect.top + py];
    },
  };

  start();
})();
