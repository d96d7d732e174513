//! `--cost AREA=C`, `--exclude AREA` and `--names LEVEL`: an agent's area costs from the
//! command line. AREA is a type's number (0 to 63) or a name from the level's `area_names`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use trinav::{AreaCosts, AreaId};
use trinav_bake::Level;

/// The area flags `path`, `render` and `bench` share.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct AreaFlags {
    /// The cost of an area type per unit of distance, `AREA=C` (AREA a number 0-63 or a name
    /// from --names; C finite and above 0; repeatable). Other types cost 1.
    #[arg(long = "cost", value_name = "AREA=C")]
    pub costs: Vec<String>,
    /// An area type the agent may not enter (a number or a name; repeatable): a wall to it.
    #[arg(long = "exclude", value_name = "AREA")]
    pub exclude: Vec<String>,
    /// A level file whose `area_names` give the names --cost and --exclude may use.
    #[arg(long, value_name = "LEVEL")]
    pub names: Option<PathBuf>,
}

impl AreaFlags {
    /// The costs the flags ask for; errors name the flag.
    pub fn area_costs(&self) -> Result<AreaCosts> {
        let names = match &self.names {
            Some(path) => load_names(path)?,
            None => BTreeMap::new(),
        };
        let mut costs = AreaCosts::default();
        for flag in &self.costs {
            let Some((area, cost)) = flag.rsplit_once('=') else {
                bail!("--cost {flag}: expected AREA=C (a type's number or name, then its cost)");
            };
            let area =
                area_id(area, &names, self.names.as_deref()).with_context(|| format!("--cost {flag}"))?;
            let cost: f64 = cost
                .trim()
                .parse()
                .with_context(|| format!("--cost {flag}: cost `{cost}` is not a number"))?;
            costs = costs.with_cost(area, cost).with_context(|| format!("--cost {flag}"))?;
        }
        for flag in &self.exclude {
            let area =
                area_id(flag, &names, self.names.as_deref()).with_context(|| format!("--exclude {flag}"))?;
            costs = costs.with_excluded(area);
        }
        Ok(costs)
    }
}

/// The `area_names` of a level file.
fn load_names(path: &Path) -> Result<BTreeMap<String, u8>> {
    let level = Level::load(path).with_context(|| format!("--names {}", path.display()))?;
    Ok(level.area_names)
}

/// A type by number or name.
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
        (None, None) => bail!("unknown area name `{text}`: give a type's number, or the level with --names"),
    }
}
