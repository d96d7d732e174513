//! SVG pictures of a mesh for `trinav render`: triangles filled with a light colour per island
//! (per area type instead when the mesh has area types other than 0) and outlined in thin grey, boundary edges thick and dark, and optionally a path with start and
//! goal markers.
//!
//! World coordinates are mapped to pixels (y flipped: world y up, SVG y down) with one scale for
//! both axes, so the aspect ratio is kept and the larger side of the picture is [`SIZE`] pixels
//! plus a margin. Because the mapping is done here rather than by an SVG transform, stroke
//! widths and marker sizes are in pixels and stay visible whatever the world units.

use std::fmt::Write;

use trinav::{Aabb, LayerId, NavMesh, Point, TriangleId};

/// Pixels of the larger side of the drawn area.
pub const SIZE: f64 = 1000.0;
/// Pixels around the drawn area.
pub const MARGIN: f64 = 30.0;

/// A path query to draw on the mesh.
pub struct PathDrawing<'a> {
    /// The start point as asked for.
    pub from: Point,
    /// The goal point as asked for.
    pub to: Point,
    /// The path found, or why there is none.
    pub outcome: Result<&'a trinav::Path, &'a str>,
    /// The agent's radius: above 0, the ground its disc sweeps is drawn under the path.
    pub radius: f64,
}

/// World to pixel mapping. A mesh with layers is drawn one panel per layer, side by side:
/// layer `l` is shifted right by `l` times `panel` world units.
struct View {
    min_x: f64,
    max_y: f64,
    scale: f64,
    width: f64,
    height: f64,
    panel: f64,
}

impl View {
    /// The view of `bounds` drawn `panels` times side by side, a tenth of the width apart.
    fn panels(bounds: Aabb, panels: usize) -> View {
        if panels <= 1 || bounds.is_empty() {
            return View::new(bounds);
        }
        let (w, _) = bounds.size();
        let panel = w * 1.1;
        let wide = Aabb {
            min: bounds.min,
            max: Point::new(bounds.min.x + panel * (panels - 1) as f64 + w, bounds.max.y),
        };
        View { panel, ..View::new(wide) }
    }

    /// Pixel position of world point `p` drawn on layer `layer`'s panel.
    fn map_on(&self, layer: LayerId, p: Point) -> (f64, f64) {
        self.map(Point::new(p.x + self.panel * f64::from(layer.0), p.y))
    }

    /// `x,y` of `p` on layer `layer`'s panel, in pixels.
    fn xy_on(&self, layer: LayerId, p: Point) -> String {
        let (x, y) = self.map_on(layer, p);
        format!("{x:.2},{y:.2}")
    }

    /// The view of `bounds` (empty or zero-sized boxes get a unit scale).
    fn new(bounds: Aabb) -> View {
        let bounds = if bounds.is_empty() {
            Aabb { min: Point::new(0.0, 0.0), max: Point::new(1.0, 1.0) }
        } else {
            bounds
        };
        let (w, h) = bounds.size();
        let larger = w.max(h);
        let scale = if larger > 0.0 && larger.is_finite() { SIZE / larger } else { 1.0 };
        View {
            min_x: bounds.min.x,
            max_y: bounds.max.y,
            scale,
            width: w * scale + 2.0 * MARGIN,
            height: h * scale + 2.0 * MARGIN,
            panel: 0.0,
        }
    }

    /// Pixel position of world point `p`.
    fn map(&self, p: Point) -> (f64, f64) {
        (MARGIN + (p.x - self.min_x) * self.scale, MARGIN + (self.max_y - p.y) * self.scale)
    }

    /// `x,y` of `p` in pixels, for `points` and `d` attributes.
    fn xy(&self, p: Point) -> String {
        let (x, y) = self.map(p);
        format!("{x:.2},{y:.2}")
    }
}

/// The fill colour of island `id`: ten hand-picked light colours, then light hues spread by
/// the golden angle. Deterministic, so a mesh always renders the same.
pub fn island_colour(id: u32) -> String {
    const PALETTE: [&str; 10] = [
        "#cfe3f7", "#d4efc4", "#fde0b2", "#e6d5f2", "#f9cfcf", "#cdeee8", "#f4eeb2", "#e2d9cb", "#cbd6f5",
        "#f2d0e4",
    ];
    match PALETTE.get(id as usize) {
        Some(c) => (*c).to_string(),
        None => {
            let hue = (f64::from(id) * 137.507_764) % 360.0;
            let (r, g, b) = hsl_to_rgb(hue, 0.6, 0.84);
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    }
}

/// The fill colour of area type `area`: light grey for untagged ground, then the island
/// colours (type 1 takes the first).
pub fn area_colour(area: u8) -> String {
    match area {
        0 => "#ececec".to_string(),
        a => island_colour(u32::from(a) - 1),
    }
}

/// HSL (hue in degrees, saturation and lightness in 0..=1) to 8-bit RGB.
fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The SVG picture of `mesh`, with `title` (plain text, escaped here) and an optional path.
pub fn svg(mesh: &NavMesh, title: &str, path: Option<&PathDrawing>) -> String {
    // The view holds the mesh and the query points (an off-mesh point snapped onto the mesh
    // stays visible).
    let mut bounds = mesh.bounds();
    if let Some(p) = path {
        bounds = bounds.grown(p.from).grown(p.to);
    }
    let view = View::panels(bounds, mesh.layer_count());
    let n = mesh.triangle_count();

    // Interior edges thin enough not to swamp small triangles, never thinner than 0.2 px.
    let mesh_area_px = mesh.stats().area * view.scale * view.scale / mesh.layer_count() as f64;
    let mean_px = if n > 0 { (mesh_area_px / n as f64).sqrt() } else { 0.0 };
    let edge_width = (0.06 * mean_px).clamp(0.2, 0.8);

    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.2} {h:.2}\">",
        w = view.width,
        h = view.height
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");

    // Triangles, one group per island (or per area type when the mesh has types other than
    // 0; fill on the group), one polygon each.
    let by_area = mesh.parts().areas.iter().any(|a| a.0 != 0);
    let mut groups: Vec<Vec<TriangleId>> = Vec::new();
    for i in 0..n {
        let t = TriangleId::from_index(i);
        let group = if by_area { mesh.area_id(t).index() } else { mesh.island(t).0 as usize };
        if group >= groups.len() {
            groups.resize(group + 1, Vec::new());
        }
        groups[group].push(t);
    }
    let _ = writeln!(
        s,
        "<g id=\"triangles\" stroke=\"#8f8f8f\" stroke-width=\"{edge_width:.2}\" stroke-linejoin=\"round\">"
    );
    for (group, triangles) in groups.iter().enumerate() {
        if triangles.is_empty() {
            continue;
        }
        let _ = if by_area {
            writeln!(s, "<g class=\"area\" data-area=\"{group}\" fill=\"{}\">", area_colour(group as u8))
        } else {
            writeln!(
                s,
                "<g class=\"island\" data-island=\"{group}\" fill=\"{}\">",
                island_colour(group as u32)
            )
        };
        for &t in triangles {
            let [a, b, c] = mesh.triangle_points(t);
            let l = mesh.triangle_layer(t);
            let _ = writeln!(
                s,
                "<polygon data-triangle=\"{t}\" points=\"{} {} {}\"/>",
                view.xy_on(l, a),
                view.xy_on(l, b),
                view.xy_on(l, c)
            );
        }
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</g>");

    // Boundary edges: edge i of a triangle runs from corner i to corner i + 1. On a mesh with
    // layers, the edges to another layer (portals) are drawn dashed, on both panels.
    let mut d = String::new();
    let mut portals = String::new();
    for i in 0..n {
        let t = TriangleId::from_index(i);
        let corners = mesh.triangle_points(t);
        let l = mesh.triangle_layer(t);
        for (e, &neighbour) in mesh.neighbours(t).iter().enumerate() {
            let (a, b) = (view.xy_on(l, corners[e]), view.xy_on(l, corners[(e + 1) % 3]));
            if neighbour.is_none() {
                let _ = write!(d, "M{a}L{b}");
            } else if mesh.triangle_layer(neighbour) != l {
                let _ = write!(portals, "M{a}L{b}");
            }
        }
    }
    if !portals.is_empty() {
        let _ = writeln!(
            s,
            "<path id=\"portals\" fill=\"none\" stroke=\"#e07b00\" stroke-width=\"3\" \
             stroke-dasharray=\"6 4\" d=\"{portals}\"/>"
        );
    }
    if mesh.is_layered() {
        for l in 0..mesh.layer_count() {
            let layer = LayerId(l as u16);
            let (x, _) = view.map_on(layer, mesh.bounds().min);
            let _ = writeln!(
                s,
                "<text class=\"layer\" x=\"{x:.2}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"15\" \
                 font-weight=\"bold\" fill=\"#333333\">{}</text>",
                MARGIN - 10.0,
                escape(mesh.layer_name(layer).unwrap_or("?"))
            );
        }
    }
    if !d.is_empty() {
        let _ = writeln!(
            s,
            "<path id=\"boundary\" fill=\"none\" stroke=\"#1e1e1e\" stroke-width=\"2.5\" \
             stroke-linecap=\"round\" d=\"{d}\"/>"
        );
    }

    draw_links(&mut s, &view, mesh);
    if let Some(p) = path {
        draw_path(&mut s, &view, p, mesh);
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// The off-mesh links: an arrow from each link's start to its end (a head at both ends when it
/// goes both ways), dashed, with its cost as a tooltip.
fn draw_links(s: &mut String, view: &View, mesh: &NavMesh) {
    if mesh.link_count() == 0 {
        return;
    }
    let _ = writeln!(
        s,
        "<defs><marker id=\"link-head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" \
         markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" fill=\"#7b2cbf\"/></marker></defs>\n\
         <g id=\"links\" stroke=\"#7b2cbf\" stroke-width=\"2\" stroke-dasharray=\"6 3\" fill=\"none\">"
    );
    for (id, link) in mesh.links() {
        let (x1, y1) = view.map_on(link.from_layer, link.from);
        let (x2, y2) = view.map_on(link.to_layer, link.to);
        let start = if link.bidirectional { " marker-start=\"url(#link-head)\"" } else { "" };
        let _ = writeln!(
            s,
            "<line class=\"link\" data-link=\"{id}\" x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" \
             marker-end=\"url(#link-head)\"{start}><title>link {id}: cost {}{}</title></line>",
            link.cost,
            if link.bidirectional { ", both ways" } else { "" }
        );
    }
    let _ = writeln!(s, "</g>");
}

/// The path (white halo under a red line), markers at its ends, and for a snapped end a dashed
/// line from the point asked for; with no path, the two points and a visible note.
fn draw_path(s: &mut String, view: &View, p: &PathDrawing, mesh: &NavMesh) {
    let (start, goal) = match p.outcome {
        Ok(path) if mesh.is_layered() => {
            // Each segment on the panel of each of its ends' layers (a segment through a
            // portal shows on both sides).
            let _ = writeln!(s, "<g id=\"path\" fill=\"none\" stroke-linecap=\"round\">");
            for (k, w) in path.points.windows(2).enumerate() {
                let (a, b) = (path.layer(k), path.layer(k + 1));
                let panels: &[LayerId] = if a == b || path.is_link_step(k) { &[b] } else { &[a, b] };
                for &l in panels {
                    let (from, to) = if path.is_link_step(k) {
                        (view.xy_on(a, w[0]), view.xy_on(b, w[1]))
                    } else {
                        (view.xy_on(l, w[0]), view.xy_on(l, w[1]))
                    };
                    let _ = writeln!(
                        s,
                        "<polyline stroke=\"#ffffff\" stroke-opacity=\"0.85\" stroke-width=\"7\" points=\"{from} {to}\"/>\n\
                         <polyline class=\"path\" stroke=\"#d62728\" stroke-width=\"3.5\" points=\"{from} {to}\"/>"
                    );
                }
            }
            let _ = writeln!(s, "</g>");
            let last = path.points.len().saturating_sub(1);
            let first = path.points.first().map(|&q| (path.layer(0), q)).unwrap_or((LayerId(0), p.from));
            let end = path.points.last().map(|&q| (path.layer(last), q)).unwrap_or((LayerId(0), p.to));
            draw_markers(s, view, [first, end], None);
            return;
        }
        Ok(path) => {
            let points: Vec<String> = path.points.iter().map(|&q| view.xy(q)).collect();
            let points = points.join(" ");
            if p.radius > 0.0 {
                // The disc's sweep: a stroke as wide as the agent, with round ends and joins.
                let width = 2.0 * p.radius * view.scale;
                let _ = writeln!(
                    s,
                    "<polyline id=\"agent\" fill=\"none\" stroke=\"#d62728\" stroke-opacity=\"0.25\" \
                     stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke-width=\"{width:.2}\" points=\"{points}\"/>"
                );
            }
            let _ = writeln!(
                s,
                "<g id=\"path\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">\n\
                 <polyline stroke=\"#ffffff\" stroke-opacity=\"0.85\" stroke-width=\"7\" points=\"{points}\"/>\n\
                 <polyline class=\"path\" stroke=\"#d62728\" stroke-width=\"3.5\" points=\"{points}\"/>\n</g>"
            );
            let first = path.points.first().copied().unwrap_or(p.from);
            let last = path.points.last().copied().unwrap_or(p.to);
            (first, last)
        }
        Err(reason) => {
            let _ = writeln!(
                s,
                "<text class=\"note\" x=\"{MARGIN}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"15\" \
                 fill=\"#b00020\">{}</text>",
                MARGIN - 10.0,
                escape(&format!("no path: {reason}"))
            );
            (p.from, p.to)
        }
    };
    draw_markers(s, view, [(LayerId(0), start), (LayerId(0), goal)], Some([p.from, p.to]));
}

/// The start and goal markers (on their layers' panels), and for a snapped end a dashed line
/// from the point asked for.
fn draw_markers(
    s: &mut String,
    view: &View,
    [(start_layer, start), (goal_layer, goal)]: [(LayerId, Point); 2],
    asked: Option<[Point; 2]>,
) {
    for (asked, at) in asked.map(|[from, to]| [(from, start), (to, goal)]).into_iter().flatten() {
        if asked != at {
            let (x1, y1) = view.map(asked);
            let (x2, y2) = view.map(at);
            let _ = writeln!(
                s,
                "<line class=\"snap\" x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" \
                 stroke=\"#444444\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n\
                 <circle class=\"asked\" cx=\"{x1:.2}\" cy=\"{y1:.2}\" r=\"4\" fill=\"none\" \
                 stroke=\"#444444\" stroke-width=\"1.5\"/>"
            );
        }
    }
    for (class, label, layer, at, colour) in
        [("start", "start", start_layer, start, "#2ca02c"), ("goal", "goal", goal_layer, goal, "#1f4fa8")]
    {
        let (x, y) = view.map_on(layer, at);
        // The label right of the marker, or left of it near the right edge.
        let (label_x, anchor) = if x + 50.0 > view.width { (x - 10.0, "end") } else { (x + 10.0, "start") };
        let label_y = if y - 20.0 < 0.0 { y + 20.0 } else { y - 8.0 };
        let _ = writeln!(
            s,
            "<g class=\"{class}\"><title>{label} ({}, {})</title>\
             <circle class=\"{class}\" cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"7\" fill=\"{colour}\" \
             stroke=\"#ffffff\" stroke-width=\"2\"/>\
             <text x=\"{label_x:.2}\" y=\"{label_y:.2}\" text-anchor=\"{anchor}\" font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\" \
             fill=\"{colour}\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">{label}</text></g>",
            at.x, at.y,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_is_light_distinct_and_deterministic() {
        let colours: Vec<String> = (0..40).map(island_colour).collect();
        for (i, c) in colours.iter().enumerate() {
            assert_eq!(c.len(), 7, "{c}");
            assert_eq!(*c, island_colour(i as u32));
            let channel = |k: usize| u8::from_str_radix(&c[1 + 2 * k..3 + 2 * k], 16).unwrap();
            let sum: u32 = (0..3).map(|k| u32::from(channel(k))).sum();
            assert!(sum > 3 * 170, "{c} is too dark");
        }
        for (i, a) in colours.iter().enumerate().take(10) {
            assert!(!colours[i + 1..10].contains(a), "{a} repeats");
        }
    }

    #[test]
    fn view_flips_y_and_keeps_aspect() {
        let view = View::new(Aabb { min: Point::new(-10.0, 0.0), max: Point::new(10.0, 5.0) });
        assert_eq!(view.map(Point::new(-10.0, 5.0)), (MARGIN, MARGIN));
        assert_eq!(view.map(Point::new(10.0, 0.0)), (MARGIN + SIZE, MARGIN + SIZE / 4.0));
        assert_eq!((view.width, view.height), (SIZE + 2.0 * MARGIN, SIZE / 4.0 + 2.0 * MARGIN));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
    }
}
