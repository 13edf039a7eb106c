//! The learned distance heuristic of Cahlík & Surynek (2019): a fully connected network that
//! reads a board one-hot encoded (cell × tile) and estimates its distance to the goal. This
//! file holds only inference: the weight file, its checks, and a batched forward pass with
//! batch normalisation folded into the dense layers. Training is `learn::train` (feature
//! `train`), which writes the same file.
//!
//! The weight file is safetensors: `layers.{i}.weight` (`[out, in]`, f32, the PyTorch and
//! candle layout) and `layers.{i}.bias` for every dense layer, the last one the output
//! (`[1, in]`); optionally `norms.{i}.{weight,bias,running_mean,running_var}` for a batch
//! normalisation after hidden layer `i`'s activation. Its metadata says what the network
//! means (`format = tilekit-ann`, `version`, `rows`, `cols`, `activation = elu`, `target`,
//! `base`, `bn_eps`) and carries a `checksum` of the tensors, so that a damaged or foreign
//! file is refused with one clear error instead of estimating nonsense.
//!
//! Targets: `distance` (C&S: the output is the distance) or `residual` (the output is the
//! distance minus the admissible estimate named by `base`, e.g. `pdb 7-8 + reflection`; a
//! residual network can only be used with that same estimate beside it).

use super::astar::{Guide, MAX_CELLS, Tiles};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The metadata `format` of a tilekit network.
pub const FORMAT: &str = "tilekit-ann";
/// The weight file version this code reads and writes.
pub const VERSION: &str = "1";

/// Why a weight file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AnnError {
    /// The file cannot be read.
    #[error("{path}: cannot read the network: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a usable network.
    #[error("{path}: not a usable tilekit network: {why}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// What the network's output means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// The distance itself (Cahlík & Surynek).
    Distance,
    /// The distance minus the admissible estimate named by the file's `base`.
    Residual,
}

impl Target {
    /// The metadata spelling.
    pub fn name(self) -> &'static str {
        match self {
            Target::Distance => "distance",
            Target::Residual => "residual",
        }
    }
    /// The target of a metadata spelling.
    pub fn parse(s: &str) -> Option<Target> {
        [Target::Distance, Target::Residual]
            .into_iter()
            .find(|t| t.name() == s)
    }
}

/// One dense layer, weights transposed to `[in][out]` for the kernels.
#[derive(Debug, Clone)]
struct Dense {
    w: Vec<f32>,
    b: Vec<f32>,
    n_in: usize,
    n_out: usize,
}

/// A loaded network, ready to evaluate boards.
#[derive(Debug, Clone)]
pub struct Mlp {
    rows: usize,
    cols: usize,
    target: Target,
    base: String,
    /// The first layer is applied as a gather of one row per cell (the input is one-hot).
    layers: Vec<Dense>,
    checksum: u64,
    params: usize,
}

fn elu(x: &mut [f32]) {
    for v in x {
        if *v < 0.0 {
            *v = v.exp_m1();
        }
    }
}

/// The checksum the metadata carries: the tensors' names and bytes in name order.
pub fn tensors_checksum<'a>(tensors: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> u64 {
    let mut sorted: Vec<(&str, &[u8])> = tensors.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let mut bytes = Vec::new();
    for (name, data) in sorted {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&(data.len() as u64).to_le_bytes());
        bytes.extend_from_slice(data);
    }
    super::pdb::checksum(&bytes)
}

impl Mlp {
    /// Read and check a weight file.
    pub fn load(path: &Path) -> Result<Mlp, AnnError> {
        let bytes = std::fs::read(path).map_err(|source| AnnError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_bytes(&bytes).map_err(|why| AnnError::Format {
            path: path.display().to_string(),
            why,
        })
    }

    /// Parse and check the bytes of a weight file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp, String> {
        use safetensors::{Dtype, SafeTensors};
        let st =
            SafeTensors::deserialize(bytes).map_err(|e| format!("not a safetensors file ({e})"))?;
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| e.to_string())?;
        let meta: HashMap<String, String> = header.metadata().clone().unwrap_or_default();
        let get = |k: &str| {
            meta.get(k)
                .map(String::as_str)
                .ok_or_else(|| format!("metadata has no {k:?}"))
        };
        if get("format")? != FORMAT {
            return Err(format!("metadata format is not {FORMAT:?}"));
        }
        if get("version")? != VERSION {
            return Err(format!(
                "weight file version {} (this tilekit reads {VERSION})",
                get("version")?
            ));
        }
        let num = |k: &str| -> Result<usize, String> {
            get(k)?
                .parse()
                .map_err(|_| format!("metadata {k:?} is not a number"))
        };
        let (rows, cols) = (num("rows")?, num("cols")?);
        if rows < 2 || cols < 2 || rows * cols > MAX_CELLS {
            return Err(format!(
                "a {rows}×{cols} board is not supported (at most 16 cells)"
            ));
        }
        if get("activation")? != "elu" {
            return Err(format!("activation {:?} (only elu)", get("activation")?));
        }
        let target_name = get("target")?;
        let target = Target::parse(target_name)
            .ok_or_else(|| format!("target {target_name:?} (distance or residual)"))?;
        let base = meta.get("base").cloned().unwrap_or_default();
        if target == Target::Residual && base.is_empty() {
            return Err("a residual network must name its base estimate".into());
        }
        let eps: f32 = get("bn_eps")?
            .parse()
            .map_err(|_| "metadata \"bn_eps\" is not a number".to_string())?;
        let want = u64::from_str_radix(get("checksum")?, 16)
            .map_err(|_| "metadata \"checksum\" is not hexadecimal".to_string())?;
        let views: Vec<(String, safetensors::tensor::TensorView)> = st.tensors();
        let got = tensors_checksum(views.iter().map(|(n, v)| (n.as_str(), v.data())));
        if got != want {
            return Err(format!(
                "checksum mismatch (file says {want:016x}, tensors give {got:016x}): the file is damaged"
            ));
        }
        let mut tensors: BTreeMap<String, (Vec<usize>, Vec<f32>)> = BTreeMap::new();
        for (name, v) in &views {
            if v.dtype() != Dtype::F32 {
                return Err(format!("tensor {name} is {:?}, not F32", v.dtype()));
            }
            let data = v
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            tensors.insert(name.clone(), (v.shape().to_vec(), data));
        }
        let n = rows * cols;
        let mut layers = Vec::new();
        let mut n_in = n * n;
        let mut params = 0;
        let mut pending_norm: Option<(Vec<f32>, Vec<f32>)> = None;
        for i in 0.. {
            let Some((wshape, w)) = tensors.remove(&format!("layers.{i}.weight")) else {
                break;
            };
            let (bshape, b) = tensors
                .remove(&format!("layers.{i}.bias"))
                .ok_or_else(|| format!("layers.{i}.weight has no layers.{i}.bias"))?;
            if wshape.len() != 2 || wshape[1] != n_in || bshape != [wshape[0]] {
                return Err(format!(
                    "layers.{i} has shape {wshape:?} / {bshape:?}, expected [_, {n_in}] / [_]"
                ));
            }
            params += w.len() + b.len();
            let n_out = wshape[0];
            // Transpose to [in][out].
            let mut wt = vec![0f32; n_in * n_out];
            for o in 0..n_out {
                for k in 0..n_in {
                    wt[k * n_out + o] = w[o * n_in + k];
                }
            }
            let mut bias = b;
            // A normalisation after the previous layer's activation, y = s·a + t, folds
            // into this layer: W·(s·a + t) + b = (W·diag s)·a + (W·t + b).
            if let Some((s, t)) = pending_norm.take() {
                for k in 0..n_in {
                    for o in 0..n_out {
                        bias[o] += wt[k * n_out + o] * t[k];
                        wt[k * n_out + o] *= s[k];
                    }
                }
            }
            let norm = ["weight", "bias", "running_mean", "running_var"]
                .map(|p| tensors.remove(&format!("norms.{i}.{p}")));
            if norm.iter().any(Option::is_some) {
                let [Some(g), Some(be), Some(m), Some(v)] = norm else {
                    return Err(format!("norms.{i} lacks one of its four tensors"));
                };
                if [&g, &be, &m, &v].iter().any(|x| x.0 != [n_out]) {
                    return Err(format!("norms.{i} does not have shape [{n_out}]"));
                }
                params += 4 * n_out;
                let s: Vec<f32> = (0..n_out).map(|k| g.1[k] / (v.1[k] + eps).sqrt()).collect();
                let t: Vec<f32> = (0..n_out).map(|k| be.1[k] - m.1[k] * s[k]).collect();
                pending_norm = Some((s, t));
            }
            layers.push(Dense {
                w: wt,
                b: bias,
                n_in,
                n_out,
            });
            n_in = n_out;
        }
        if pending_norm.is_some() {
            return Err("a normalisation after the output layer".into());
        }
        if layers.is_empty() {
            return Err("no tensor layers.0.weight".into());
        }
        if n_in != 1 {
            return Err(format!("the last layer has {n_in} outputs, not 1"));
        }
        if let Some(extra) = tensors.keys().next() {
            return Err(format!("unexpected tensor {extra}"));
        }
        Ok(Mlp {
            rows,
            cols,
            target,
            base,
            layers,
            checksum: want,
            params,
        })
    }

    /// Rows of the boards it reads.
    pub fn rows(&self) -> usize {
        self.rows
    }
    /// Columns of the boards it reads.
    pub fn cols(&self) -> usize {
        self.cols
    }
    /// What the output means.
    pub fn target(&self) -> Target {
        self.target
    }
    /// The admissible estimate a residual network is trained over (empty for `distance`).
    pub fn base(&self) -> &str {
        &self.base
    }
    /// The file's tensor checksum.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }
    /// Trainable parameters in the file.
    pub fn params(&self) -> usize {
        self.params
    }
    /// Bytes of the weights as evaluated (f32, normalisation folded).
    pub fn bytes(&self) -> usize {
        4 * self
            .layers
            .iter()
            .map(|l| l.w.len() + l.b.len())
            .sum::<usize>()
    }
    /// The hidden widths, e.g. `[1024, 1024, 512, 128, 64]`.
    pub fn hidden(&self) -> Vec<usize> {
        let l = self.layers.len();
        self.layers[..l - 1].iter().map(|d| d.n_out).collect()
    }

    /// The raw outputs for `boards` (blank-first tiles) into `out`.
    pub fn forward(&self, boards: &[Tiles], out: &mut [f32]) {
        let bsz = boards.len();
        let n = self.rows * self.cols;
        let first = &self.layers[0];
        let mut x = vec![0f32; bsz * first.n_out];
        for (row, t) in x.chunks_exact_mut(first.n_out).zip(boards) {
            row.copy_from_slice(&first.b);
            for (c, &tile) in t.iter().take(n).enumerate() {
                let k = c * n + tile as usize;
                let w = &first.w[k * first.n_out..(k + 1) * first.n_out];
                for (r, &wv) in row.iter_mut().zip(w) {
                    *r += wv;
                }
            }
        }
        if self.layers.len() > 1 {
            elu(&mut x);
        }
        let last = self.layers.len() - 1;
        for (i, l) in self.layers.iter().enumerate().skip(1) {
            let mut y = vec![0f32; bsz * l.n_out];
            for row in y.chunks_exact_mut(l.n_out) {
                row.copy_from_slice(&l.b);
            }
            if bsz <= 4 {
                // Matrix–vector products: sgemm's packing costs more than it saves here.
                for (yr, xr) in y.chunks_exact_mut(l.n_out).zip(x.chunks_exact(l.n_in)) {
                    for (k, &xv) in xr.iter().enumerate() {
                        let w = &l.w[k * l.n_out..(k + 1) * l.n_out];
                        for (o, &wv) in yr.iter_mut().zip(w) {
                            *o += xv * wv;
                        }
                    }
                }
            } else {
                // SAFETY: the slices hold exactly bsz×n_in, n_in×n_out and bsz×n_out
                // values, laid out row-major with the strides given.
                unsafe {
                    matrixmultiply::sgemm(
                        bsz,
                        l.n_in,
                        l.n_out,
                        1.0,
                        x.as_ptr(),
                        l.n_in as isize,
                        1,
                        l.w.as_ptr(),
                        l.n_out as isize,
                        1,
                        1.0,
                        y.as_mut_ptr(),
                        l.n_out as isize,
                        1,
                    );
                }
            }
            if i < last {
                elu(&mut y);
            }
            x = y;
        }
        out[..bsz].copy_from_slice(&x[..bsz]);
    }
}

/// How the network's output becomes a search estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnnUse {
    /// Never below the admissible estimate (`ann-pdb`).
    pub floor: bool,
}

/// A network used as the search guide.
pub struct AnnGuide<'a> {
    /// The network.
    pub mlp: &'a Mlp,
    /// Whether it is floored.
    pub how: AnnUse,
}

impl AnnGuide<'_> {
    /// The estimate of one board from the network's raw output and its admissible estimate.
    /// (Rounding to the distance's parity was tried and dropped: it turns small errors into
    /// overestimates of two, and A* loses the ordering the fractions carry; README.)
    pub fn finish(&self, raw: f32, lower: u32) -> f32 {
        let h = match self.mlp.target {
            Target::Distance => raw.max(0.0),
            Target::Residual => lower as f32 + raw.max(0.0),
        };
        if self.how.floor {
            h.max(lower as f32)
        } else {
            h
        }
    }
}

impl Guide for AnnGuide<'_> {
    fn guide(&self, boards: &[Tiles], lower: &[u32], out: &mut [f32]) {
        self.mlp.forward(boards, out);
        for (o, &l) in out.iter_mut().zip(lower) {
            *o = self.finish(*o, l);
        }
    }
    fn name(&self) -> String {
        format!(
            "ann {}{}",
            self.mlp.target.name(),
            if self.how.floor { ", floored" } else { "" }
        )
    }
}

/// Everything a weight file holds, for writers (the trainer, tests): tensors by name with
/// their shapes, and the metadata fields other than `format`, `version` and `checksum`.
pub struct WeightsOut {
    /// `(name, shape, values)`.
    pub tensors: Vec<(String, Vec<usize>, Vec<f32>)>,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// What the output means.
    pub target: Target,
    /// The admissible estimate under a residual target.
    pub base: String,
    /// The normalisation epsilon.
    pub bn_eps: f32,
}

/// The bytes of a weight file (deterministic: tensors in name order).
pub fn write_weights(w: &WeightsOut) -> Result<Vec<u8>, String> {
    let raw: Vec<(String, Vec<usize>, Vec<u8>)> = w
        .tensors
        .iter()
        .map(|(n, s, v)| {
            (
                n.clone(),
                s.clone(),
                v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            )
        })
        .collect();
    let sum = tensors_checksum(raw.iter().map(|(n, _, b)| (n.as_str(), b.as_slice())));
    // The header is written here rather than by `safetensors::serialize`, whose metadata is a
    // HashMap (its order, hence the file's bytes, would change from run to run). The layout
    // is the format's: an 8-byte little-endian header length, the JSON header (tensors by
    // name with dtype, shape and data offsets, `__metadata__` first), spaces to an 8-byte
    // boundary, then the data. The reader is the safetensors crate itself.
    let meta: BTreeMap<&str, String> = BTreeMap::from([
        ("format", FORMAT.to_string()),
        ("version", VERSION.to_string()),
        ("rows", w.rows.to_string()),
        ("cols", w.cols.to_string()),
        ("activation", "elu".to_string()),
        ("target", w.target.name().to_string()),
        ("base", w.base.clone()),
        ("bn_eps", w.bn_eps.to_string()),
        ("checksum", format!("{sum:016x}")),
    ]);
    let mut sorted: Vec<&(String, Vec<usize>, Vec<u8>)> = raw.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), serde_json::json!(meta));
    let mut offset = 0usize;
    for (name, shape, bytes) in &sorted {
        if shape.iter().product::<usize>() * 4 != bytes.len() {
            return Err(format!(
                "tensor {name}: shape {shape:?} does not fit its data"
            ));
        }
        header.insert(
            name.clone(),
            serde_json::json!({
                "dtype": "F32",
                "shape": shape,
                "data_offsets": [offset, offset + bytes.len()],
            }),
        );
        offset += bytes.len();
    }
    let mut text = serde_json::to_string(&serde_json::Value::Object(header))
        .map_err(|e| e.to_string())?
        .into_bytes();
    while text.len() % 8 != 0 {
        text.push(b' ');
    }
    let mut out = Vec::with_capacity(8 + text.len() + offset);
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(&text);
    for (_, _, bytes) in sorted {
        out.extend_from_slice(bytes);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(rows: usize, cols: usize, seed: u64, norm: bool) -> Vec<u8> {
        let n = rows * cols;
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            rng ^= rng >> 12;
            rng ^= rng << 25;
            rng ^= rng >> 27;
            (rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let dims = [n * n, 8, 5, 1];
        let mut owned: Vec<(String, Vec<usize>, Vec<f32>)> = Vec::new();
        for i in 0..3 {
            let w: Vec<f32> = (0..dims[i] * dims[i + 1]).map(|_| next()).collect();
            let b: Vec<f32> = (0..dims[i + 1]).map(|_| next()).collect();
            owned.push((format!("layers.{i}.weight"), vec![dims[i + 1], dims[i]], w));
            owned.push((format!("layers.{i}.bias"), vec![dims[i + 1]], b));
            if norm && i < 2 {
                for p in ["weight", "bias", "running_mean", "running_var"] {
                    let v: Vec<f32> = (0..dims[i + 1]).map(|_| next() + 1.0).collect();
                    owned.push((format!("norms.{i}.{p}"), vec![dims[i + 1]], v));
                }
            }
        }
        write_weights(&WeightsOut {
            tensors: owned,
            rows,
            cols,
            target: Target::Distance,
            base: String::new(),
            bn_eps: 1e-5,
        })
        .unwrap()
    }

    /// The forward pass written out plainly from the file's tensors (no folding, dense
    /// one-hot input), to check the fast path against.
    fn reference(bytes: &[u8], board: &Tiles, n: usize) -> f32 {
        let st = safetensors::SafeTensors::deserialize(bytes).unwrap();
        let t = |name: &str| -> Option<(Vec<usize>, Vec<f32>)> {
            let v = st.tensor(name).ok()?;
            Some((
                v.shape().to_vec(),
                v.data()
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect(),
            ))
        };
        let mut x = vec![0f32; n * n];
        for c in 0..n {
            x[c * n + board[c] as usize] = 1.0;
        }
        for i in 0.. {
            let Some((s, w)) = t(&format!("layers.{i}.weight")) else {
                break;
            };
            let (_, b) = t(&format!("layers.{i}.bias")).unwrap();
            let mut y: Vec<f32> = (0..s[0])
                .map(|o| b[o] + (0..s[1]).map(|k| w[o * s[1] + k] * x[k]).sum::<f32>())
                .collect();
            if t(&format!("layers.{}.weight", i + 1)).is_some() {
                for v in &mut y {
                    if *v < 0.0 {
                        *v = v.exp() - 1.0;
                    }
                }
                if let Some((_, g)) = t(&format!("norms.{i}.weight")) {
                    let (_, be) = t(&format!("norms.{i}.bias")).unwrap();
                    let (_, m) = t(&format!("norms.{i}.running_mean")).unwrap();
                    let (_, v) = t(&format!("norms.{i}.running_var")).unwrap();
                    for k in 0..y.len() {
                        y[k] = g[k] * (y[k] - m[k]) / (v[k] + 1e-5).sqrt() + be[k];
                    }
                }
            }
            x = y;
        }
        x[0]
    }

    #[test]
    fn folded_batched_forward_matches_the_plain_one_at_every_batch_size() {
        for norm in [false, true] {
            let bytes = tiny(3, 3, 7, norm);
            let mlp = Mlp::from_bytes(&bytes).unwrap();
            let boards: Vec<Tiles> = (0..70u64)
                .map(|s| {
                    let mut t = [0u8; MAX_CELLS];
                    let mut v: Vec<u8> = (0..9).collect();
                    let mut r = crate::edge_search::Rng::new(s);
                    r.shuffle(&mut v);
                    t[..9].copy_from_slice(&v);
                    t
                })
                .collect();
            for bsz in [1, 3, 4, 5, 64, 70] {
                let mut out = vec![0f32; bsz];
                mlp.forward(&boards[..bsz], &mut out);
                for (b, o) in boards.iter().zip(&out) {
                    let want = reference(&bytes, b, 9);
                    assert!(
                        (o - want).abs() < 1e-4,
                        "norm {norm} batch {bsz}: {o} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = tiny(3, 3, 1, true);
        assert!(Mlp::from_bytes(&bytes).is_ok());
        let e = Mlp::from_bytes(&bytes[..bytes.len() - 9]).unwrap_err();
        assert!(e.contains("safetensors"), "{e}");
        let mut flip = bytes.clone();
        let at = flip.len() - 5;
        flip[at] ^= 0x10;
        assert!(Mlp::from_bytes(&flip).unwrap_err().contains("checksum"));
        assert!(Mlp::from_bytes(b"not a file").is_err());
        // A network for another board: shapes do not fit its metadata.
        let other = String::from_utf8_lossy(&bytes).replace("\"rows\":\"3\"", "\"rows\":\"2\"");
        let e = Mlp::from_bytes(other.as_bytes());
        assert!(e.is_err());
    }

    #[test]
    fn finishing_floors_at_the_admissible_estimate() {
        let bytes = tiny(3, 3, 1, false);
        let mlp = Mlp::from_bytes(&bytes).unwrap();
        let floored = AnnGuide {
            mlp: &mlp,
            how: AnnUse { floor: true },
        };
        assert_eq!(floored.finish(13.2, 10), 13.2);
        assert_eq!(floored.finish(4.0, 10), 10.0);
        let raw = AnnGuide {
            mlp: &mlp,
            how: AnnUse { floor: false },
        };
        assert_eq!(raw.finish(4.0, 10), 4.0);
        assert_eq!(raw.finish(-3.0, 10), 0.0);
    }
}
