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
  const LINK_COLOUR = '#0f8b8d';

  // ---- The API ----

  /** GET (no body) or POST a JSON body; the answer, or an Error with the server's message. */
  async function api(path, body, method) {
    const init = body === undefined ? (method ? { method } : {}) : {
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

  /**
   * The mesh as drawn for layer `layer` (an id; null: every layer): its triangles only, with
   * the same vertices. An edge to a triangle of another layer (a portal) is drawn as an
   * interior edge, not as a wall.
   */
  function layerView(m, layer) {
    if (layer === null || m.triangle_layers.length === 0) return m;
    const keep = [];
    for (let t = 0; t < m.n; t++) if (m.triangle_layers[t] === layer) keep.push(t);
    const index = new Map(keep.map((t, i) => [t, i]));
    const portal = keep.length + 1; // above every kept id: drawn once, as an interior edge
    const view = { ...m, n: keep.length, triangles: [], neighbours: [], islands: [], areas: [] };
    for (const t of keep) {
      for (let e = 0; e < 3; e++) {
        view.triangles.push(m.triangles[3 * t + e]);
        const n = m.neighbours[3 * t + e];
        view.neighbours.push(n < 0 ? -1 : (index.has(n) ? index.get(n) : portal));
      }
      view.islands.push(m.islands[t]);
      view.areas.push(m.areas[t]);
    }
    return view;
  }

  // ---- Renderers ----
  //
  // Both draw in device pixels, through a `view` { cx, cy, scale, width, height }: the world
  // point at the centre, pixels per world unit, the target's size. A target is the page's
  // canvas (null) or one made by createTarget(width, height) (an image of the mesh that
  // drawImage can show). Interface: setColours(colours), createTarget(width, height),
  // drawMesh(target, view, { edges, dpr }), drawImage(target, view, image), finish().

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
      const imageVertex = `#version 300 es
        in vec2 a_pos; in vec2 a_uv; out vec2 v_uv;
        void main() { gl_Position = vec4(a_pos, 0.0, 1.0); v_uv = a_uv; }`;
      const imageFragment = `#version 300 es
        precision mediump float; uniform sampler2D u_image; in vec2 v_uv; out vec4 colour;
        void main() { colour = texture(u_image, v_uv); }`;
      this.flat = this.program(flat, colourFragment);
      this.wide = this.program(wide, uniformFragment);
      this.image = this.program(imageVertex, imageFragment);
      this.quadBuffer = gl.createBuffer();
      this.quad = this.vertexArray(this.image, null, [['a_pos', 2], ['a_uv', 2]], this.quadBuffer);
      this.maxImageSide = Math.min(4096, gl.getParameter(gl.MAX_TEXTURE_SIZE));
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

    /**
     * A vertex array over `data` (or over `buffer`, filled later) with `layout`
     * [[attribute, size], ...] (floats, interleaved).
     */
    vertexArray(program, data, layout, buffer = null) {
      const gl = this.gl;
      const vao = gl.createVertexArray();
      gl.bindVertexArray(vao);
      if (!buffer) buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      if (data) gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
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

    /** Draws `mesh` from now on (the same canvas and programs, new buffers). */
    setMesh(mesh) {
      this.mesh = mesh;
      this.build();
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

    createTarget(width, height) {
      const gl = this.gl;
      const texture = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, width, height);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      const framebuffer = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      return { framebuffer, texture, width, height };
    }

    /** Binds and clears `target`; its size. */
    begin(target) {
      const gl = this.gl;
      const [w, h] = target ? [target.width, target.height] : [this.canvas.width, this.canvas.height];
      gl.bindFramebuffer(gl.FRAMEBUFFER, target ? target.framebuffer : null);
      gl.viewport(0, 0, w, h);
      gl.clearColor(1, 1, 1, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      return [w, h];
    }

    drawMesh(target, view, options) {
      const gl = this.gl;
      const [w, h] = this.begin(target);
      const centre = [view.cx - this.mesh.centre[0], view.cy - this.mesh.centre[1]];
      const scale = [(2 * view.scale) / w, (2 * view.scale) / h];

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
        gl.uniform2fv(this.wide.uniforms.u_half, [w / 2, h / 2]);
        gl.uniform1f(this.wide.uniforms.u_width, BOUNDARY_WIDTH * options.dpr);
        gl.uniform4fv(this.wide.uniforms.u_colour, BOUNDARY_COLOUR);
        gl.bindVertexArray(this.boundary);
        gl.drawArrays(gl.TRIANGLES, 0, this.boundaryCount);
      }
      gl.bindVertexArray(null);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    }

    drawImage(target, view, image) {
      const gl = this.gl;
      const [w, h] = this.begin(target);
      // The image's corners in clip space (world to clip in double precision here).
      const clip = (x, y) => [((x - view.cx) * 2 * view.scale) / w, ((y - view.cy) * 2 * view.scale) / h];
      const [x0, y0, x1, y1] = image.rect;
      const corners = [[x0, y0, 0, 0], [x1, y0, 1, 0], [x0, y1, 0, 1], [x1, y1, 1, 1]];
      const data = new Float32Array(corners.flatMap(([x, y, u, v]) => [...clip(x, y), u, v]));
      gl.bindBuffer(gl.ARRAY_BUFFER, this.quadBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
      gl.useProgram(this.image.program);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, image.target.texture);
      gl.uniform1i(this.image.uniforms.u_image, 0);
      gl.bindVertexArray(this.quad);
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      gl.bindVertexArray(null);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    }

    /** Waits until everything drawn so far is done (for timing). */
    finish(_target) {
      const pixel = new Uint8Array(4);
      this.gl.readPixels(0, 0, 1, 1, this.gl.RGBA, this.gl.UNSIGNED_BYTE, pixel);
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
      this.maxImageSide = 4096;
      this.setMesh(mesh);
    }

    /** Draws `mesh` from now on. */
    setMesh(mesh) {
      this.mesh = mesh;
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

    createTarget(width, height) {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      return { canvas, ctx: canvas.getContext('2d', { alpha: false }), width, height };
    }

    /** The context of `target`, reset and cleared; its size. */
    begin(target) {
      const ctx = target ? target.ctx : this.ctx;
      const [w, h] = target ? [target.width, target.height] : [this.canvas.width, this.canvas.height];
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, w, h);
      return [ctx, w, h];
    }

    drawMesh(target, view, options) {
      const [ctx, w, h] = this.begin(target);
      const s = view.scale;
      ctx.setTransform(s, 0, 0, -s, w / 2 - (view.cx - this.mesh.centre[0]) * s,
        h / 2 + (view.cy - this.mesh.centre[1]) * s);
      for (const [colour, path] of this.fills) {
        ctx.fillStyle = colour;
        ctx.fill(path);
      }
      ctx.lineJoin = 'round';
      ctx.lineCap = 'round';
      if (options.edges) {
        ctx.strokeStyle = `rgba(143,143,143,${EDGE_COLOUR[3]})`;
        ctx.lineWidth = options.dpr / s;
        ctx.stroke(this.edges);
      }
      ctx.strokeStyle = cssColour(BOUNDARY_COLOUR.slice(0, 3).map((c) => c * 255));
      ctx.lineWidth = (BOUNDARY_WIDTH * options.dpr) / s;
      ctx.stroke(this.boundary);
    }

    drawImage(target, view, image) {
      const [ctx, w, h] = this.begin(target);
      const [x0, y0, x1, y1] = image.rect;
      const s = view.scale;
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(image.target.canvas, w / 2 + (x0 - view.cx) * s, h / 2 - (y1 - view.cy) * s,
        (x1 - x0) * s, (y1 - y0) * s);
    }

    /** Waits until everything drawn so far is done (2D canvases draw lazily). */
    finish(target) {
      (target ? target.ctx : this.ctx).getImageData(0, 0, 1, 1);
    }
  }

  // ---- The viewer ----

  const camera = new Camera();
  const state = {
    mesh: null,
    view: null, // the mesh as drawn: every layer, or the layer shown
    layer: null, // the layer shown (an id), or null for every layer
    renderer: null,
    colourBy: 'island',
    start: null, // [x, y]
    goal: null,
    startLayer: null, // the layer shown when the start was clicked (a name), or null
    goalLayer: null,
    paths: {}, // mode -> answer
    pathQuery: 0, // sequence number: answers of older queries are dropped
    ray: null, // { from, to, answer }
    corner: null, // the first corner of a box obstacle being drawn
    obstacles: [], // { id, outer, update_us }
    hover: null, // /api/locate answer
    hoverPending: null,
    hoverInFlight: false,
    drawPending: false,
    snapshot: null, // the camera the mesh canvas was drawn for, and its size in CSS pixels
    stale: true, // the snapshot must be drawn again (colours, edges or size changed)
    idleTimer: 0,
    renders: 0, // snapshots drawn so far
    levels: [], // zoom levels, sharpest first: { scale, rect, target }
    directMs: 0, // how long drawing the whole mesh took
  };
  const stage = $('stage');
  const meshCanvas = $('mesh');
  const overlay = $('overlay');
  const overlayCtx = overlay.getContext('2d');

  function showError(message) {
    $('error').textContent = message || '';
  }

  /** The mean edge length of a triangle at `scale`, in pixels (edges are drawn above 3). */
  function meanTrianglePixels(scale) {
    const m = state.mesh;
    return m.n > 0 ? Math.sqrt(m.stats.area / m.n) * scale : 0;
  }

  function meshOptions(scale) {
    const dpr = window.devicePixelRatio || 1;
    return { edges: $('edges').checked && meanTrianglePixels(scale) > 3 * dpr, dpr };
  }

  // Drawing every triangle takes longer than a frame on large meshes without a GPU (Chromium's
  // software WebGL needs about 3 µs a triangle). Two caches keep panning and zooming at the
  // display's frame rate:
  //
  // - Zoom levels: when one drawing of the whole mesh takes longer than DIRECT_BUDGET_MS, the
  //   mesh is drawn once into images of 4096, 2048, ... 256 pixels across, and a view zoomed
  //   out enough is drawn from the smallest image at least as sharp as the view (one textured
  //   quad). Closer views draw the triangles.
  // - The snapshot: the mesh canvas holds the mesh drawn for the camera of some moment, over
  //   the stage and SNAPSHOT_MARGIN of its size beyond each side. Panning and zooming move and
  //   scale the canvas with a CSS transform (the compositor's work) until the view leaves the
  //   snapshot or zooms past SNAPSHOT_ZOOM; once the view has been still for SNAPSHOT_IDLE_MS,
  //   the snapshot is drawn again, sharp, for the current camera.
  const DIRECT_BUDGET_MS = 12;
  const SNAPSHOT_MARGIN = 0.25;
  const SNAPSHOT_ZOOM = 1.5;
  const SNAPSHOT_IDLE_MS = 150;

  /** Draws the zoom levels (when drawing the whole mesh is slow); returns the time it took. */
  function buildLevels() {
    const r = state.renderer;
    const m = state.mesh;
    const [x0, y0, x1, y1] = m.bounds;
    const span = Math.max(x1 - x0, y1 - y0, 1e-9);
    // How long the whole mesh takes, drawn at the size of the largest level.
    const probe = { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, scale: r.maxImageSide / span, width: 1, height: 1 };
    const target = r.createTarget(64, 64);
    const started = performance.now();
    r.drawMesh(target, { ...probe, scale: 64 / span, width: 64, height: 64 }, meshOptions(64 / span));
    r.finish(target);
    state.directMs = performance.now() - started;
    state.levels = [];
    if (state.directMs <= DIRECT_BUDGET_MS) return 0;
    for (let scale = probe.scale; ; scale /= 2) {
      const width = Math.ceil((x1 - x0) * scale) + 2;
      const height = Math.ceil((y1 - y0) * scale) + 2;
      const view = { cx: probe.cx, cy: probe.cy, scale, width, height };
      const image = {
        scale,
        rect: [view.cx - width / 2 / scale, view.cy - height / 2 / scale, view.cx + width / 2 / scale,
          view.cy + height / 2 / scale],
        target: r.createTarget(width, height),
      };
      r.drawMesh(image.target, view, meshOptions(scale));
      state.levels.push(image);
      r.finish(image.target);
      if (Math.max(width, height) <= 256) break;
    }
    return performance.now() - started;
  }

  /** Whether the snapshot can show the current view: zoom close enough, stage covered. */
  function snapshotCovers(snap) {
    if (!snap) return false;
    const ratio = camera.scale / snap.scale;
    if (ratio > SNAPSHOT_ZOOM || ratio < 1 / SNAPSHOT_ZOOM) return false;
    const toSnap = ([x, y]) => [(x - snap.cx) * snap.scale + snap.width / 2, snap.height / 2 - (y - snap.cy) * snap.scale];
    const [x0, y0] = toSnap(camera.toWorld(0, 0));
    const [x1, y1] = toSnap(camera.toWorld(camera.width, camera.height));
    const slack = 0.5;
    return x0 >= -slack && y0 >= -slack && x1 <= snap.width + slack && y1 <= snap.height + slack;
  }

  /** Draws the mesh canvas for the current camera: from a zoom level, or triangle by triangle. */
  function renderSnapshot(direct = false) {
    const dpr = window.devicePixelRatio || 1;
    const snap = {
      cx: camera.cx, cy: camera.cy, scale: camera.scale,
      width: Math.round(camera.width * (1 + 2 * SNAPSHOT_MARGIN)),
      height: Math.round(camera.height * (1 + 2 * SNAPSHOT_MARGIN)),
    };
    const [w, h] = [Math.max(1, Math.round(snap.width * dpr)), Math.max(1, Math.round(snap.height * dpr))];
    if (meshCanvas.width !== w || meshCanvas.height !== h) {
      meshCanvas.width = w;
      meshCanvas.height = h;
      meshCanvas.style.width = `${snap.width}px`;
      meshCanvas.style.height = `${snap.height}px`;
    }
    const view = { cx: snap.cx, cy: snap.cy, scale: snap.scale * dpr, width: w, height: h };
    // The smallest level at least as sharp as the view.
    const level = direct ? null : state.levels.findLast((image) => image.scale >= view.scale);
    if (level) state.renderer.drawImage(null, view, level);
    else state.renderer.drawMesh(null, view, meshOptions(view.scale));
    state.snapshot = snap;
    state.stale = false;
    state.renders++;
  }

  /** Places the snapshot so that its world points lie under the current camera's. */
  function placeSnapshot() {
    const snap = state.snapshot;
    const k = camera.scale / snap.scale;
    const tx = camera.width / 2 - (k * snap.width) / 2 + (snap.cx - camera.cx) * camera.scale;
    const ty = camera.height / 2 - (k * snap.height) / 2 - (snap.cy - camera.cy) * camera.scale;
    meshCanvas.style.transform = `matrix(${k}, 0, 0, ${k}, ${tx}, ${ty})`;
  }

  function drawNow() {
    if (!state.renderer) return;
    if (state.stale || !snapshotCovers(state.snapshot)) renderSnapshot();
    placeSnapshot();
    drawOverlay();
    window.clearTimeout(state.idleTimer);
    const snap = state.snapshot;
    if (snap.cx !== camera.cx || snap.cy !== camera.cy || snap.scale !== camera.scale) {
      state.idleTimer = window.setTimeout(() => {
        renderSnapshot();
        placeSnapshot();
      }, SNAPSHOT_IDLE_MS);
    }
  }

  /** Draws the mesh again (after a change of colours or edges). */
  function invalidate() {
    if (!state.renderer) return;
    buildLevels();
    state.stale = true;
    requestDraw();
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

    const arrowHead = (from, to) => {
      const [ax, ay] = screen(from);
      const [bx, by] = screen(to);
      const angle = Math.atan2(by - ay, bx - ax);
      ctx.beginPath();
      ctx.moveTo(bx, by);
      ctx.lineTo(bx - 10 * Math.cos(angle - 0.4), by - 10 * Math.sin(angle - 0.4));
      ctx.lineTo(bx - 10 * Math.cos(angle + 0.4), by - 10 * Math.sin(angle + 0.4));
      ctx.closePath();
      ctx.fill();
    };
    for (const link of state.mesh.links) {
      const shown = state.layer === null || link.from_layer === state.layer || link.to_layer === state.layer;
      if (!shown) continue;
      ctx.strokeStyle = ctx.fillStyle = link.usable ? LINK_COLOUR : '#999999';
      ctx.lineWidth = 2;
      ctx.setLineDash(link.usable ? [] : [4, 4]);
      const [fx, fy] = screen(link.from);
      const [tx, ty] = screen(link.to);
      if (Math.hypot(tx - fx, ty - fy) < 8) {
        // Both ends in one place (a ladder between layers): a ring.
        ctx.beginPath();
        ctx.arc(fx, fy, 7, 0, 2 * Math.PI);
        ctx.stroke();
      } else {
        polyline([link.from, link.to]);
        ctx.stroke();
        arrowHead(link.from, link.to);
        if (link.bidirectional) arrowHead(link.to, link.from);
      }
      ctx.setLineDash([]);
    }

    const radius = agentRadius();
    for (const mode of ['fast', 'optimal']) {
      const answer = state.paths[mode];
      if (!answer || !answer.found || answer.points.length < 2) continue;
      const style = PATH_STYLE[mode];
      // The pieces walked (a link's step is drawn dashed, the agent's width under each piece).
      const steps = new Set(answer.links);
      const pieces = [];
      let piece = [answer.points[0]];
      for (let i = 1; i < answer.points.length; i++) {
        if (steps.has(i - 1)) {
          pieces.push(piece);
          dashed(answer.points[i - 1], answer.points[i], style.colour);
          piece = [];
        }
        piece.push(answer.points[i]);
      }
      pieces.push(piece);
      for (const walked of pieces.filter((p) => p.length > 1)) {
        polyline(walked);
        if (radius > 0) {
          ctx.strokeStyle = mode === 'fast' ? 'rgba(255,159,28,0.2)' : 'rgba(214,39,40,0.2)';
          ctx.lineWidth = 2 * radius * camera.scale;
          ctx.stroke();
        }
        ctx.strokeStyle = 'rgba(255,255,255,0.85)';
        ctx.lineWidth = style.width + 3;
        ctx.stroke();
        ctx.strokeStyle = style.colour;
        ctx.lineWidth = style.width;
        ctx.stroke();
      }
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
    for (const obstacle of state.obstacles) {
      polyline(obstacle.outer);
      ctx.closePath();
      ctx.setLineDash([6, 3]);
      ctx.strokeStyle = '#6b4226';
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (state.corner) marker(state.corner, '#6b4226', 4);
  }

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const width = stage.clientWidth;
    const height = stage.clientHeight;
    overlay.width = Math.max(1, Math.round(width * dpr));
    overlay.height = Math.max(1, Math.round(height * dpr));
    camera.width = Math.max(1, width);
    camera.height = Math.max(1, height);
    state.stale = true;
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
    const options = m.layers.map((l) => new Option(`${l.name} (${l.triangles} triangles)`, String(l.id)));
    if (m.layers.length > 1) options.unshift(new Option('every layer', ''));
    layer.replaceChildren(...options);
    layer.disabled = m.layers.length < 2;
    if (m.links.length > 0) {
      const dt = document.createElement('dt');
      dt.textContent = 'links';
      const dd = document.createElement('dd');
      dd.textContent = String(m.links.length);
      dd.dataset.stat = 'links';
      stats.append(dt, dd);
    }
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
    const layers = state.mesh.layers.length > 1 ? `, layer ${h.layer}` : '';
    const named = Object.entries(state.mesh.area_names || {}).find(([, type]) => type === h.area);
    const area = named ? `${h.area} (${named[0]})` : `${h.area}`;
    el.textContent = `triangle ${h.triangle}, island ${h.island}, area ${area}${layers} ${where}`;
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
        cell('cost', '–');
        cell('points', '–');
        cell('time', '–');
        continue;
      }
      if (answer.found) {
        cell('length', fmt(answer.length) + (answer.partial ? ' (partial)' : ''), answer.length);
        cell('cost', fmt(answer.cost) + (answer.links.length > 0 ? ` (${answer.links.length} link${answer.links.length > 1 ? 's' : ''})` : ''), answer.cost);
        cell('points', String(answer.points.length), answer.points.length);
        row.dataset.links = String(answer.links.length);
        row.dataset.layers = answer.layers.join(',');
        if (answer.partial) note = `Partial path: ${answer.reason}.`;
        else if (answer.layers.length > 0) {
          note = `Layers: ${answer.layers[0]} to ${answer.layers[answer.layers.length - 1]}.`;
        }
      } else {
        cell('length', 'no path');
        cell('cost', '–');
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

  /** The agent's radius from the panel (0 when empty or not a number). */
  function agentRadius() {
    const radius = Number($('radius').value);
    return Number.isFinite(radius) && radius > 0 ? radius : 0;
  }

  /** An area type by number or by a name the mesh keeps (undefined when neither). */
  function areaType(text) {
    if (/^[0-9]+$/.test(text || '')) return Number(text);
    const names = state.mesh ? state.mesh.area_names : {};
    return Object.prototype.hasOwnProperty.call(names, text) ? names[text] : undefined;
  }

  /** The agent's options for /api/path from the panel; an Error names a bad entry. */
  function agentOptions() {
    const options = { radius: agentRadius() };
    const costs = $('costs').value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    options.costs = costs.map((entry) => {
      const [area, cost] = entry.split('=').map((s) => s.trim());
      const type = areaType(area);
      if (type === undefined || cost === undefined || cost === '' || !Number.isFinite(Number(cost))) {
        throw new Error(`costs: "${entry}" is not AREA=COST (a type's number or name, then a number)`);
      }
      return [type, Number(cost)];
    });
    const exclude = $('exclude').value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    options.exclude = exclude.map((area) => {
      const type = areaType(area);
      if (type === undefined) throw new Error(`exclude: "${area}" is not an area type's number or name`);
      return type;
    });
    const budget = $('budget').value.trim();
    if (budget !== '') {
      if (!/^[0-9]+$/.test(budget) || Number(budget) > 4294967295) throw new Error(`budget: "${budget}" is not a whole number of nodes`);
      options.budget = Number(budget);
    }
    return options;
  }

  /** The name of the layer shown, or null when every layer is. */
  function shownLayerName() {
    return state.layer === null ? null : state.mesh.layers[state.layer].name;
  }

  async function queryPaths() {
    const query = ++state.pathQuery;
    const [from, to] = [state.start, state.goal];
    state.paths = {};
    showPaths();
    let agent;
    try {
      agent = agentOptions();
    } catch (e) {
      showError(e.message);
      return;
    }
    const layers = {};
    if (state.startLayer !== null) layers.from_layer = state.startLayer;
    if (state.goalLayer !== null) layers.to_layer = state.goalLayer;
    await Promise.all(state.mesh.path_modes.map(async (mode) => {
      try {
        const closest = $('closest').checked;
        const answer = await api('/api/path', { from, to, mode, snap: true, closest, ...agent, ...layers });
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
      const layer = ray.layer === null ? {} : { layer: ray.layer };
      ray.answer = await api('/api/raycast', { from: ray.from, to: ray.to, ...layer });
      showError('');
    } catch (e) {
      showError(e.message);
      state.ray = null;
    }
    showRay();
    requestDraw();
  }

  /** Loads the mesh again (after an edit) and draws it, on the layer shown. */
  async function reloadMesh() {
    const m = await api('/api/mesh');
    m.n = m.triangles.length / 3;
    m.centre = state.mesh.centre; // the renderers' origin stays where it was
    state.mesh = m;
    showMesh(m);
    if (m.layers.length > 1) $('layer').value = state.layer === null ? '' : String(state.layer);
    showLayer();
  }

  /** Adds the box with corners `a` and `b` as an obstacle. */
  async function addBox(a, b) {
    const [x0, x1] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
    const [y0, y1] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
    const outer = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    try {
      const layer = shownLayerName();
      const answer = await api('/api/obstacles', layer === null ? { outer } : { outer, layer });
      state.obstacles.push({ id: answer.id, outer, update_us: answer.update_us });
      showError('');
      await afterEdit(`added obstacle ${answer.id} in ${answer.update_us.toFixed(0)} µs: ` +
        `${answer.triangles} triangles, ${answer.islands} islands`);
    } catch (e) {
      showError(e.message);
    }
  }

  async function removeObstacle(id) {
    try {
      const answer = await api(`/api/obstacles/${id}`, undefined, 'DELETE');
      state.obstacles = state.obstacles.filter((o) => o.id !== id);
      showError('');
      await afterEdit(`removed obstacle ${id} in ${answer.update_us.toFixed(0)} µs: ` +
        `${answer.triangles} triangles, ${answer.islands} islands`);
    } catch (e) {
      showError(e.message);
    }
  }

  /** After an edit: the new mesh drawn, the list and the paths again. */
  async function afterEdit(note) {
    await reloadMesh();
    const list = $('obstacle-list');
    list.replaceChildren(...state.obstacles.map((o) => {
      const item = document.createElement('li');
      item.textContent = `${o.id}: ${pointText(o.outer[0])} – ${pointText(o.outer[2])}`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'remove';
      remove.dataset.obstacle = String(o.id);
      remove.addEventListener('click', () => removeObstacle(o.id));
      item.append(remove);
      return item;
    }));
    const el = $('obstacle-note');
    el.textContent = note;
    el.dataset.triangles = String(state.mesh.stats.triangles);
    if (state.start && state.goal) queryPaths();
    requestDraw();
  }

  function hoverAt(p) {
    if (!state.renderer) return;
    state.hoverPending = p;
    if (state.hoverInFlight) return;
    const next = async () => {
      const point = state.hoverPending;
      state.hoverPending = null;
      state.hoverInFlight = true;
      try {
        const layer = shownLayerName();
        state.hover = await api('/api/locate', layer === null ? { point } : { point, layer });
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

  function clickAt(px, py, shift, ctrl = false) {
    if (!state.renderer) return;
    const p = camera.toWorld(px, py);
    if (ctrl) {
      if (!state.corner) {
        state.corner = p;
      } else {
        const corner = state.corner;
        state.corner = null;
        addBox(corner, p);
      }
      requestDraw();
      return;
    }
    if (shift) {
      if (!state.ray || state.ray.answer) {
        state.ray = { from: p, to: null, answer: null, layer: shownLayerName() };
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
      state.startLayer = shownLayerName();
      state.goal = null;
      state.paths = {};
      state.pathQuery++;
      showPaths();
      requestDraw();
    } else {
      state.goal = p;
      state.goalLayer = shownLayerName();
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
        clickAt(x, y, event.shiftKey, event.ctrlKey);
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
      if (!state.renderer) return;
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
      if (!state.renderer) return;
      camera.fit(state.mesh.bounds);
      requestDraw();
    });
    $('clear').addEventListener('click', clearQueries);
    $('edges').addEventListener('change', invalidate);
    for (const id of ['closest', 'budget', 'radius', 'costs', 'exclude']) {
      $(id).addEventListener('change', () => {
        if (state.start && state.goal) queryPaths();
      });
    }
    $('colour-by').addEventListener('change', (event) => {
      state.colourBy = event.target.value;
      if (!state.renderer) return;
      state.renderer.setColours(triangleColours(state.view, state.colourBy));
      invalidate();
    });
    $('layer').addEventListener('change', (event) => {
      state.layer = event.target.value === '' ? null : Number(event.target.value);
      if (!state.renderer) return;
      showLayer();
    });
    new ResizeObserver(resize).observe(stage);
  }

  // ---- Frame timing (used by the tests, available from the console) ----

  /**
   * Pans and zooms for `frames` animation frames as a hand would (the view's centre circles a
   * quarter of the stage's width away, the zoom swings between 0.7 and 1.4 times the start's),
   * and resolves to the requestAnimationFrame intervals: { renderer, triangles, frames,
   * median_ms, p95_ms, max_ms, mean_ms, fps (from the mean interval), renders (snapshots
   * drawn) }. With `direct`, the mesh is drawn again every frame instead of moving the
   * snapshot: the renderer's own speed.
   */
  function measureFrames(frames = 120, direct = false) {
    const home = { cx: camera.cx, cy: camera.cy, scale: camera.scale };
    const m = state.mesh;
    const renders = state.renders;
    const stamps = [];
    return new Promise((resolve) => {
      const frame = (time) => {
        const i = stamps.length;
        stamps.push(time);
        const phase = (2 * Math.PI * i) / frames;
        const radius = (0.25 * camera.width) / home.scale;
        camera.cx = home.cx + radius * (Math.cos(phase) - 1);
        camera.cy = home.cy + radius * Math.sin(phase);
        camera.scale = home.scale * Math.pow(2, 0.5 * Math.sin(2 * phase));
        if (direct) {
          renderSnapshot(true);
          placeSnapshot();
          drawOverlay();
        } else {
          drawNow();
        }
        if (stamps.length <= frames) {
          window.requestAnimationFrame(frame);
          return;
        }
        Object.assign(camera, home);
        state.stale = true;
        drawNow();
        const intervals = stamps.slice(1).map((t, k) => t - stamps[k]).sort((a, b) => a - b);
        const mean = intervals.reduce((sum, v) => sum + v, 0) / intervals.length;
        resolve({
          renderer: state.renderer.name,
          triangles: m.n,
          frames: intervals.length,
          direct,
          median_ms: intervals[Math.floor(intervals.length / 2)],
          p95_ms: intervals[Math.floor(intervals.length * 0.95)],
          max_ms: intervals[intervals.length - 1],
          mean_ms: mean,
          fps: 1000 / mean,
          renders: state.renders - renders - 1,
        });
      };
      window.requestAnimationFrame(frame);
    });
  }

  /** Draws the layer chosen (or every layer): the mesh's triangles of it, its zoom levels. */
  function showLayer() {
    state.view = layerView(state.mesh, state.layer);
    state.renderer.setMesh(state.view);
    state.renderer.setColours(triangleColours(state.view, state.colourBy));
    invalidate();
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
    state.view = m;
    showMesh(m);
    try {
      state.renderer = createRenderer(m);
    } catch (e) {
      $('loading').textContent = `Cannot draw: ${e.message}`;
      return;
    }
    state.renderer.setColours(triangleColours(m, state.colourBy));
    const levelsMs = buildLevels();
    let note = `Drawn with ${state.renderer.name}: ${state.directMs.toFixed(1)} ms for the whole mesh`;
    if (state.levels.length > 0) {
      note += `, so zoomed-out views come from ${state.levels.length} zoom levels (drawn in ${levelsMs.toFixed(0)} ms)`;
    }
    $('renderer').textContent = `${note}.`;
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
    addBox,
    removeObstacle,
    /** The page (client) coordinates of world point (x, y). */
    worldToClient(x, y) {
      const rect = overlay.getBoundingClientRect();
      const [px, py] = camera.toScreen(x, y);
      return [rect.left + px, rect.top + py];
    },
  };

  start();
})();
