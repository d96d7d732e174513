//! `--cost AREA=C`, `--exclude AREA` and `--names LEVEL`: an agent's area costs from the
//! command line. AREA is a type's number (0 to 63) or a name: from the level's `area_names`
//! given with `--names`, else from the mesh (a baked file keeps its level's names).
//! `--terrain LETTER=AREA,...` and `--area-color RRGGBB=AREA`: the area types of a grid's cells
//! for `bake`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use trinav::{AreaCosts, AreaId, AreaNames, NavMesh};
use trinav_bake::Level;
use trinav_bake::import::terrain::GridTerrain;
use trinav_bake::import::{ImportError, TerrainOption};

/// The area flags `path`, `render` and `bench` share.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AreaFlags {
    /// The cost of an area type per unit of distance, `AREA=C` (AREA a number 0-63 or a name
    /// from --names, else from the mesh; C finite and above 0; repeatable). Other types cost 1.
    #[arg(long = "cost", value_name = "AREA=C")]
    pub costs: Vec<String>,
    /// An area type the agent may not enter (a number or a name; repeatable): a wall to it.
    #[arg(long = "exclude", value_name = "AREA")]
    pub exclude: Vec<String>,
    /// A level file whose `area_names` give the names --cost and --exclude may use (instead
    /// of the names the mesh keeps).
    #[arg(long, value_name = "LEVEL")]
    pub names: Option<PathBuf>,
}

impl AreaFlags {
    /// The costs the flags ask for on `mesh` (read from `mesh_path`), names from --names or
    /// else the mesh's; errors name the flag.
    pub fn area_costs(&self, mesh: &NavMesh, mesh_path: &Path) -> Result<AreaCosts> {
        let (names, source) = match &self.names {
            Some(path) => (load_names(path)?, Some(path.as_path())),
            None if !mesh.area_names().is_empty() => (by_name(mesh.area_names()), Some(mesh_path)),
            None => (BTreeMap::new(), None),
        };
        let mut costs = AreaCosts::default();
        for flag in &self.costs {
            let Some((area, cost)) = flag.rsplit_once('=') else {
                bail!("--cost {flag}: expected AREA=C (a type's number or name, then its cost)");
            };
            let area = area_id(area, &names, source).with_context(|| format!("--cost {flag}"))?;
            let cost: f64 = cost
                .trim()
                .parse()
                .with_context(|| format!("--cost {flag}: cost `{cost}` is not a number"))?;
            costs = costs.with_cost(area, cost).with_context(|| format!("--cost {flag}"))?;
        }
        for flag in &self.exclude {
            let area = area_id(flag, &names, source).with_context(|| format!("--exclude {flag}"))?;
            costs = costs.with_excluded(area);
        }
        Ok(costs)
    }
}

/// The names of a mesh's area types as a level writes them: name to type.
pub fn by_name(names: &AreaNames) -> BTreeMap<String, u8> {
    names.iter().map(|(name, area)| (name.to_string(), area.0)).collect()
}

/// The `area_names` of a level file.
fn load_names(path: &Path) -> Result<BTreeMap<String, u8>> {
    let level = Level::load(path).with_context(|| format!("--names {}", path.display()))?;
    Ok(level.area_names)
}

/// A type by number or name (`names` read from the file `names_file`).
fn area_id(text: &str, names: &BTreeMap<String, u8>, names_file: Option<&Path>) -> Result<AreaId> {
    let text = text.trim();
    if let Ok(number) = text.parse::<u32>() {
        if number > u32::from(AreaId::MAX.0) {
            bail!("area type {number} is beyond the largest, {}", AreaId::MAX.0);
        }
        return Ok(AreaId(number as u8));
    }
    match (names.get(text), names_file) {
        (Some(&area), _) => Ok(AreaId(area)),
        (None, Some(file)) => {
            let known: Vec<&str> = names.keys().map(String::as_str).collect();
            bail!("unknown area name `{text}` (the names in {}: {})", file.display(), known.join(", "))
        }
        (None, None) => bail!(
            "unknown area name `{text}`: no names given (the mesh keeps none): give a type's number, or the level with --names"
        ),
    }
}

/// The terrain flags of `bake`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TerrainFlags {
    /// Moving AI maps: make letters S (swamp), W (water) and T (trees), blocked otherwise,
    /// walkable ground of an area type: `S=2,W=3` (AREA 1-63 or a name from --names;
    /// repeatable).
    #[arg(long = "terrain", value_name = "LETTER=AREA,...")]
    pub letters: Vec<String>,
    /// Bitmaps: pixels of colour RRGGBB (hex) are walkable ground of area type AREA (1-63 or
    /// a name from --names), whatever their brightness (repeatable).
    #[arg(long = "area-color", value_name = "RRGGBB=AREA")]
    pub colors: Vec<String>,
    /// A level file whose `area_names` give the names --terrain and --area-color may use.
    #[arg(long = "names", value_name = "LEVEL")]
    pub names: Option<PathBuf>,
}

impl TerrainFlags {
    /// The terrain the flags ask for, and the names --names gives, for the baked mesh to keep
    /// (none without the flag; the level is read once); errors name the flag.
    pub fn terrain(&self) -> Result<(GridTerrain, Option<AreaNames>)> {
        let (names, kept) = match &self.names {
            Some(path) => {
                let names = load_names(path)?;
                let pairs = names.iter().map(|(name, &area)| (name.clone(), AreaId(area)));
                let kept = AreaNames::new(pairs).with_context(|| format!("--names {}", path.display()))?;
                (names, Some(kept))
            }
            None => (BTreeMap::new(), None),
        };
        let names_file = self.names.as_deref();
        let mut terrain = GridTerrain::default();
        for flag in &self.letters {
            for item in flag.split(',') {
                let context = || format!("--terrain {flag}");
                let Some((letter, area)) = item.split_once('=') else {
                    bail!("--terrain {flag}: `{item}`: expected LETTER=AREA (S, W or T, then a type)");
                };
                let mut chars = letter.trim().chars();
                let (Some(letter), None) = (chars.next(), chars.next()) else {
                    bail!("--terrain {flag}: `{letter}` is not one letter (S, W or T)");
                };
                let area = area_id(area, &names, names_file).with_context(context)?;
                terrain = terrain.with_letter(letter, area).with_context(context)?;
            }
        }
        for flag in &self.colors {
            let context = || format!("--area-color {flag}");
            let Some((color, area)) = flag.split_once('=') else {
                bail!("--area-color {flag}: expected RRGGBB=AREA (a colour in hex, then a type)");
            };
            let color = parse_color(color.trim()).with_context(context)?;
            let area = area_id(area, &names, names_file).with_context(context)?;
            terrain = terrain.with_color(color, area).with_context(context)?;
        }
        Ok((terrain, kept))
    }

    /// An import error, with the flag named when it is the flag's fault (given for a format
    /// it does not apply to).
    pub fn name_flag(&self, error: ImportError) -> anyhow::Error {
        let flag = match &error {
            ImportError::TerrainNotApplicable { option: TerrainOption::Letters, .. } => {
                format!("--terrain {}", self.letters.join(" --terrain "))
            }
            ImportError::TerrainNotApplicable { option: TerrainOption::Colors, .. } => {
                format!("--area-color {}", self.colors.join(" --area-color "))
            }
            _ => return error.into(),
        };
        anyhow::Error::new(error).context(flag)
    }
}

/// A colour written `RRGGBB` (six hex digits, an optional leading `#`).
fn parse_color(text: &str) -> Result<[u8; 3]> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("colour `{text}` is not RRGGBB (six hex digits)");
    }
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("checked hex digits");
    Ok([channel(0), channel(2), channel(4)])
}
