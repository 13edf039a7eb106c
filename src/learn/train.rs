//! Training the distance network on candle (CPU), feature `train`.
//!
//! The architecture is Cahlík & Surynek's by default shape: one-hot (cell × tile) input,
//! hidden layers `Dense → ELU → BatchNorm → Dropout`, a linear output, Adam, mean squared
//! error, He-initialised weights. (Their Keras code applies ELU twice per layer; one is used
//! here.) Variants: any hidden widths, normalisation and dropout off, the asymmetric loss of
//! their journal version (`amse:α`, an overestimate weighted `(1+α)²` and an underestimate
//! `(1−α)²`), and the `residual` target, the distance above the admissible estimate the
//! search keeps anyway (the pattern databases), whose spread is about half the distance's.
//!
//! Everything random (initial weights, sample order, dropout masks) comes from the seeded
//! generator, not candle's unseeded one, so a command and its data file give the same
//! weights on the same machine. Validation uses the weight file written for the search and
//! the search's own forward pass ([`crate::search::ann::Mlp`]), so what is measured is what
//! A* will evaluate; the validation set is whole solve paths the training never sees.

use super::data::{self, Sample};
use crate::edge_search::Rng;
use crate::field::Field;
use crate::search::NativeSolver;
use crate::search::ann::{Mlp, Target, WeightsOut, write_weights};
use crate::search::astar::Tiles;
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use std::path::PathBuf;
use std::time::Instant;

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The data file.
    #[error(transparent)]
    Data(#[from] data::DataError),
    /// Settings that cannot be run.
    #[error("{0}")]
    Usage(String),
    /// The tensor library failed.
    #[error("training failed: {0}")]
    Candle(#[from] candle_core::Error),
    /// An output could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The training loss.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Loss {
    /// Mean squared error (Cahlík & Surynek 2019).
    Mse,
    /// Their asymmetric MSE: `(ŷ−y)² · (sign(ŷ−y) + α)²`.
    Amse(f32),
}

impl Loss {
    /// `mse` or `amse:ALPHA`.
    pub fn parse(s: &str) -> Option<Loss> {
        if s == "mse" {
            return Some(Loss::Mse);
        }
        let a: f32 = s.strip_prefix("amse:")?.parse().ok()?;
        (0.0..1.0).contains(&a).then_some(Loss::Amse(a))
    }
}

/// Settings of [`train`].
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// The data file.
    pub data: PathBuf,
    /// The weight file to write (its manifest goes beside it, `.json`).
    pub output: PathBuf,
    /// Hidden widths.
    pub hidden: Vec<usize>,
    /// What the output means.
    pub target: Target,
    /// Batch normalisation after each hidden activation.
    pub norm: bool,
    /// Dropout after each hidden layer (0: none).
    pub dropout: f32,
    /// The loss.
    pub loss: Loss,
    /// Most epochs.
    pub epochs: usize,
    /// Stop after this many epochs without a better validation MSE.
    pub patience: usize,
    /// Samples per step.
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f64,
    /// Share of solves (whole paths) held out for validation, in percent.
    pub val_percent: u32,
    /// Most validation samples evaluated per epoch.
    pub val_cap: usize,
    /// Training samples per epoch (None: all of them).
    pub per_epoch: Option<usize>,
    /// Add the reflected copy of every board (square boards).
    pub reflect: bool,
    /// The seed of everything random.
    pub seed: u64,
    /// The command line, for the manifest.
    pub command: String,
}

/// One epoch's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Epoch {
    /// From 1.
    pub epoch: usize,
    /// Mean training loss.
    pub train_loss: f64,
    /// Validation mean squared error of the distance.
    pub val_mse: f64,
    /// Seconds since training began.
    pub seconds: f64,
}

/// Validation figures of the kept weights.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Validation {
    /// Samples evaluated.
    pub samples: usize,
    /// Mean squared error of the distance.
    pub mse: f64,
    /// Mean signed error (estimate − distance).
    pub mean_error: f64,
    /// Share whose estimate rounds to the exact distance.
    pub exact_rounded: f64,
    /// Share overestimated by more than half a move.
    pub over: f64,
    /// Rounded error → count.
    pub histogram: std::collections::BTreeMap<i32, usize>,
}

/// The manifest written beside the weights.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Manifest {
    /// `tilekit-ann-manifest`.
    pub format: &'static str,
    /// The weight file's name.
    pub weights: String,
    /// Its tensor checksum (as in its metadata).
    pub checksum: String,
    /// The data: file, seed, board, solves, samples.
    pub data: serde_json::Value,
    /// The network: widths, normalisation, dropout, target, base, parameters.
    pub network: serde_json::Value,
    /// The training settings.
    pub training: serde_json::Value,
    /// Loss and validation by epoch.
    pub curve: Vec<Epoch>,
    /// The kept weights on the validation set.
    pub validation: Validation,
    /// The command that made it.
    pub command: String,
}

struct Layer {
    w: Var,
    b: Var,
    norm: Option<Norm>,
}

struct Norm {
    gamma: Var,
    beta: Var,
    mean: Vec<f32>,
    var: Vec<f32>,
}

const BN_EPS: f32 = 1e-3;
const MOMENTUM: f32 = 0.01;

fn normal(rng: &mut Rng) -> f32 {
    // Box–Muller from the seeded generator.
    let u1 = rng.unit().max(1e-12);
    let u2 = rng.unit();
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

fn encode(batch: &[&Sample], n: usize, base: &[f32], target: Target) -> (Vec<f32>, Vec<f32>) {
    let mut x = vec![0f32; batch.len() * n * n];
    let mut y = Vec::with_capacity(batch.len());
    for (i, s) in batch.iter().enumerate() {
        for c in 0..n {
            x[i * n * n + c * n + s.tiles[c] as usize] = 1.0;
        }
        y.push(match target {
            Target::Distance => s.distance as f32,
            Target::Residual => s.distance as f32 - base[i],
        });
    }
    (x, y)
}

/// Train a network as `opts` say; `base` is the admissible estimate a residual target is
/// over (its name goes into the file). Writes the weights and the manifest.
pub fn train(
    opts: &TrainOptions,
    base: Option<&NativeSolver>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Manifest, TrainError> {
    let started = Instant::now();
    if opts.target == Target::Residual && base.is_none() {
        return Err(TrainError::Usage(
            "a residual target needs the admissible estimate".into(),
        ));
    }
    if opts.batch < 2 || opts.epochs == 0 || opts.val_percent == 0 || opts.val_percent >= 100 {
        return Err(TrainError::Usage(
            format!(
                "{f_batch} ≥ 2, {f_epochs} ≥ 1 and 0 < {f_val_percent} < 100 are needed",
                f_batch = Field::TrainBatch,
                f_epochs = Field::Epochs,
                f_val_percent = Field::ValPercent
            )
            .into(),
        ));
    }
    let df = data::read(&opts.data)?;
    let (rows, cols) = (df.header.rows, df.header.cols);
    let n = rows * cols;
    let all = data::samples(&df, opts.reflect);
    // Whole solve paths go to validation, chosen by a hash of the solve's index.
    let is_val = |s: &Sample| {
        (s.solve as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(23)
            % 100
            < opts.val_percent as u64
    };
    let (val, trn): (Vec<Sample>, Vec<Sample>) = all.into_iter().partition(is_val);
    if trn.is_empty() || val.is_empty() {
        return Err(TrainError::Usage(format!(
            "{}: too few solves to split into training and validation",
            opts.data.display()
        )));
    }
    let lower = |t: &Tiles| base.map_or(0.0, |b| b.estimate_tiles(&t[..n]) as f32);
    progress(&format!(
        "{} training and {} validation samples from {} solves",
        trn.len(),
        val.len(),
        df.solves.len()
    ));
    let trn_base: Vec<f32> = match opts.target {
        Target::Residual => trn.iter().map(|s| lower(&s.tiles)).collect(),
        Target::Distance => vec![0.0; trn.len()],
    };
    let mut rng = Rng::new(opts.seed);
    let mut val_pick: Vec<usize> = (0..val.len()).collect();
    rng.shuffle(&mut val_pick);
    val_pick.truncate(opts.val_cap.max(1));
    let val_set: Vec<Sample> = val_pick.iter().map(|&i| val[i]).collect();
    let val_base: Vec<u32> = val_set.iter().map(|s| lower(&s.tiles) as u32).collect();

    let dev = Device::Cpu;
    let mut dims = vec![n * n];
    dims.extend(&opts.hidden);
    dims.push(1);
    let mut layers = Vec::new();
    for i in 0..dims.len() - 1 {
        let (fan_in, fan_out) = (dims[i], dims[i + 1]);
        let std = (2.0 / fan_in as f64).sqrt() as f32; // He initialisation
        let w: Vec<f32> = (0..fan_in * fan_out)
            .map(|_| normal(&mut rng) * std)
            .collect();
        let hidden = i + 1 < dims.len() - 1;
        layers.push(Layer {
            w: Var::from_tensor(&Tensor::from_vec(w, (fan_out, fan_in), &dev)?)?,
            b: Var::from_tensor(&Tensor::zeros(fan_out, DType::F32, &dev)?)?,
            norm: (hidden && opts.norm)
                .then(|| -> Result<Norm, TrainError> {
                    Ok(Norm {
                        gamma: Var::from_tensor(&Tensor::ones(fan_out, DType::F32, &dev)?)?,
                        beta: Var::from_tensor(&Tensor::zeros(fan_out, DType::F32, &dev)?)?,
                        mean: vec![0.0; fan_out],
                        var: vec![1.0; fan_out],
                    })
                })
                .transpose()?,
        });
    }
    let mut vars = Vec::new();
    for l in &layers {
        vars.push(l.w.clone());
        vars.push(l.b.clone());
        if let Some(nm) = &l.norm {
            vars.push(nm.gamma.clone());
            vars.push(nm.beta.clone());
        }
    }
    let mut opt = AdamW::new(
        vars,
        ParamsAdamW {
            lr: opts.lr,
            weight_decay: 0.0,
            ..Default::default()
        },
    )?;

    let base_name = base.map(NativeSolver::heuristic_name).unwrap_or_default();
    let export = |layers: &[Layer]| -> Result<Vec<u8>, TrainError> {
        let mut owned: Vec<(String, Vec<usize>, Vec<f32>)> = Vec::new();
        for (i, l) in layers.iter().enumerate() {
            let w = l.w.as_tensor();
            owned.push((
                format!("layers.{i}.weight"),
                w.dims().to_vec(),
                w.flatten_all()?.to_vec1()?,
            ));
            owned.push((
                format!("layers.{i}.bias"),
                l.b.as_tensor().dims().to_vec(),
                l.b.as_tensor().to_vec1()?,
            ));
            if let Some(nm) = &l.norm {
                let d = nm.mean.len();
                owned.push((
                    format!("norms.{i}.weight"),
                    vec![d],
                    nm.gamma.as_tensor().to_vec1()?,
                ));
                owned.push((
                    format!("norms.{i}.bias"),
                    vec![d],
                    nm.beta.as_tensor().to_vec1()?,
                ));
                owned.push((format!("norms.{i}.running_mean"), vec![d], nm.mean.clone()));
                owned.push((format!("norms.{i}.running_var"), vec![d], nm.var.clone()));
            }
        }
        write_weights(&WeightsOut {
            tensors: owned,
            rows,
            cols,
            target: opts.target,
            base: if opts.target == Target::Residual {
                base_name.clone()
            } else {
                String::new()
            },
            bn_eps: BN_EPS,
        })
        .map_err(TrainError::Usage)
    };
    let validate = |bytes: &[u8]| -> Result<Validation, TrainError> {
        let mlp = Mlp::from_bytes(bytes).map_err(TrainError::Usage)?;
        let mut out = vec![0f32; val_set.len()];
        let boards: Vec<Tiles> = val_set.iter().map(|s| s.tiles).collect();
        for (b, o) in boards.chunks(256).zip(out.chunks_mut(256)) {
            mlp.forward(b, o);
        }
        let mut v = Validation {
            samples: val_set.len(),
            mse: 0.0,
            mean_error: 0.0,
            exact_rounded: 0.0,
            over: 0.0,
            histogram: Default::default(),
        };
        for ((s, &raw), &l) in val_set.iter().zip(&out).zip(&val_base) {
            let est = match opts.target {
                Target::Distance => raw as f64,
                Target::Residual => l as f64 + raw as f64,
            };
            let e = est - s.distance as f64;
            v.mse += e * e;
            v.mean_error += e;
            if e.round() == 0.0 {
                v.exact_rounded += 1.0;
            }
            if e > 0.5 {
                v.over += 1.0;
            }
            *v.histogram.entry(e.round() as i32).or_default() += 1;
        }
        let k = val_set.len() as f64;
        v.mse /= k;
        v.mean_error /= k;
        v.exact_rounded /= k;
        v.over /= k;
        Ok(v)
    };

    let mut order: Vec<usize> = (0..trn.len()).collect();
    let mut curve = Vec::new();
    let mut best: Option<(f64, Vec<u8>, usize)> = None;
    let mut since_best = 0;
    let per_epoch = opts.per_epoch.unwrap_or(trn.len()).min(trn.len());
    let steps = per_epoch / opts.batch;
    for epoch in 1..=opts.epochs {
        rng.shuffle(&mut order);
        let mut loss_sum = 0.0;
        for step in 0..steps {
            let idx = &order[step * opts.batch..(step + 1) * opts.batch];
            let batch: Vec<&Sample> = idx.iter().map(|&i| &trn[i]).collect();
            let bbase: Vec<f32> = idx.iter().map(|&i| trn_base[i]).collect();
            let (x, y) = encode(&batch, n, &bbase, opts.target);
            let mut h = Tensor::from_vec(x, (batch.len(), n * n), &dev)?;
            let y = Tensor::from_vec(y, (batch.len(), 1), &dev)?;
            let last = layers.len() - 1;
            for (i, l) in layers.iter_mut().enumerate() {
                h = h
                    .matmul(&l.w.as_tensor().t()?)?
                    .broadcast_add(l.b.as_tensor())?;
                if i == last {
                    break;
                }
                h = h.elu(1.0)?;
                if let Some(nm) = &mut l.norm {
                    let mean = h.mean_keepdim(0)?;
                    let centred = h.broadcast_sub(&mean)?;
                    let var = centred.sqr()?.mean_keepdim(0)?;
                    h = centred
                        .broadcast_div(&(var.clone() + BN_EPS as f64)?.sqrt()?)?
                        .broadcast_mul(nm.gamma.as_tensor())?
                        .broadcast_add(nm.beta.as_tensor())?;
                    // Running statistics (unbiased variance), as Keras keeps them.
                    let bm: Vec<f32> = mean.flatten_all()?.to_vec1()?;
                    let bv: Vec<f32> = var.flatten_all()?.to_vec1()?;
                    let k = batch.len() as f32;
                    for j in 0..bm.len() {
                        nm.mean[j] = (1.0 - MOMENTUM) * nm.mean[j] + MOMENTUM * bm[j];
                        nm.var[j] = (1.0 - MOMENTUM) * nm.var[j] + MOMENTUM * bv[j] * k / (k - 1.0);
                    }
                }
                if opts.dropout > 0.0 {
                    let keep = 1.0 - opts.dropout;
                    let mask: Vec<f32> = (0..h.elem_count())
                        .map(|_| {
                            if rng.unit() < keep as f64 {
                                1.0 / keep
                            } else {
                                0.0
                            }
                        })
                        .collect();
                    let mask = Tensor::from_vec(mask, h.dims(), &dev)?;
                    h = (h * mask)?;
                }
            }
            let diff = (h - &y)?;
            let loss = match opts.loss {
                Loss::Mse => diff.sqr()?.mean_all()?,
                Loss::Amse(a) => {
                    let w = (diff.sign()? + a as f64)?.sqr()?.detach();
                    (diff.sqr()? * w)?.mean_all()?
                }
            };
            opt.backward_step(&loss)?;
            loss_sum += loss.to_scalar::<f32>()? as f64;
            if step % 200 == 0 {
                progress(&crate::search::step(
                    step as u64,
                    steps as u64,
                    &format!("epoch {epoch}/{}", opts.epochs),
                ));
            }
        }
        let bytes = export(&layers)?;
        let v = validate(&bytes)?;
        let e = Epoch {
            epoch,
            train_loss: loss_sum / steps.max(1) as f64,
            val_mse: v.mse,
            seconds: started.elapsed().as_secs_f64(),
        };
        progress(&format!(
            "{}epoch {epoch}: train loss {:.3}, validation MSE {:.3}, {:.1} % exact when rounded, {:.0} s",
            crate::search::NOTICE,
            e.train_loss,
            v.mse,
            100.0 * v.exact_rounded,
            e.seconds
        ));
        curve.push(e);
        // A validation MSE that is not a number (a diverged step) never counts as better.
        if v.mse.is_finite() && best.as_ref().is_none_or(|b| v.mse < b.0) {
            best = Some((v.mse, bytes, epoch));
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= opts.patience {
                break;
            }
        }
    }
    let (_, bytes, best_epoch) = best.ok_or_else(|| {
        TrainError::Usage("training diverged: no epoch gave a finite validation error".into())
    })?;
    let validation = validate(&bytes)?;
    let mlp = Mlp::from_bytes(&bytes).map_err(TrainError::Usage)?;
    super::write_atomic(&opts.output, &bytes).map_err(|source| TrainError::Io {
        path: opts.output.display().to_string(),
        source,
    })?;
    let manifest = Manifest {
        format: "tilekit-ann-manifest",
        weights: opts
            .output
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        checksum: format!("{:016x}", mlp.checksum()),
        data: serde_json::json!({
            "file": opts.data.file_name().map(|f| f.to_string_lossy().into_owned()),
            "seed": df.header.seed,
            "rows": rows,
            "cols": cols,
            "solves": df.solves.len(),
            "reflect": opts.reflect,
            "train_samples": trn.len(),
            "validation_samples": val.len(),
        }),
        network: serde_json::json!({
            "input": format!("one-hot cell×tile ({} inputs), blank-first goal", n * n),
            "hidden": opts.hidden,
            "activation": "elu",
            "batch_norm": opts.norm,
            "dropout": opts.dropout,
            "target": opts.target,
            "base": mlp.base(),
            "parameters": mlp.params(),
        }),
        training: serde_json::json!({
            "loss": opts.loss,
            "optimizer": "adam",
            "lr": opts.lr,
            "batch": opts.batch,
            "epochs_max": opts.epochs,
            "epochs_run": curve.len(),
            "best_epoch": best_epoch,
            "patience": opts.patience,
            "per_epoch": per_epoch,
            "val_percent": opts.val_percent,
            "seed": opts.seed,
            "seconds": started.elapsed().as_secs_f64(),
            "threads": std::thread::available_parallelism().map_or(1, |t| t.get()),
        }),
        curve,
        validation,
        command: opts.command.clone(),
    };
    let json = serde_json::to_string_pretty(&manifest).expect("plain data") + "\n";
    let mpath = opts.output.with_extension("json");
    super::write_atomic(&mpath, json.as_bytes()).map_err(|source| TrainError::Io {
        path: mpath.display().to_string(),
        source,
    })?;
    Ok(manifest)
}
