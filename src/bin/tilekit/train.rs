//! `tilekit learn train` (built with `--features train`).

use std::path::PathBuf;
use std::process::ExitCode;
use tilekit::Error;
use tilekit::learn::train::{self, Loss, TrainOptions};
use tilekit::search::ann::Target;

/// The trainer's flags.
#[derive(clap::Args, Clone)]
pub(crate) struct TrainArgs {
    /// The data file (`tilekit learn data`).
    #[arg(long)]
    pub data: PathBuf,
    /// The weight file to write (safetensors; the manifest goes beside it as .json).
    #[arg(short = 'o')]
    pub output: PathBuf,
    /// Hidden widths, comma-separated (Cahlík & Surynek: 1024,1024,512,128,64).
    #[arg(long, value_delimiter = ',', default_value = "1024,1024,512,128,64")]
    pub hidden: Vec<usize>,
    /// distance (the paper's) or residual (the distance above the pattern databases'
    /// estimate, which the search keeps beside the network anyway).
    #[arg(long, value_enum, default_value = "distance")]
    pub target: TargetArg,
    /// Leave out batch normalisation.
    #[arg(long)]
    pub no_norm: bool,
    /// Dropout after each hidden layer.
    #[arg(long, default_value_t = 0.2)]
    pub dropout: f32,
    /// mse (the paper's) or amse:ALPHA (their asymmetric loss, 0 ≤ ALPHA < 1).
    #[arg(long, default_value = "mse")]
    pub loss: String,
    /// Most epochs.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Stop after this many epochs without a better validation error.
    #[arg(long, default_value_t = 3)]
    pub patience: usize,
    /// Samples per step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Percent of the solves (whole paths) held out for validation.
    #[arg(long, default_value_t = 10)]
    pub val_percent: u32,
    /// Most validation samples evaluated per epoch.
    #[arg(long, default_value_t = 200_000)]
    pub val_cap: usize,
    /// Training samples per epoch (default: all).
    #[arg(long)]
    pub per_epoch: Option<usize>,
    /// Do not add the reflected copy of each board.
    #[arg(long)]
    pub no_reflect: bool,
    /// Seed of the initial weights, sample order and dropout.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `--target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TargetArg {
    /// The distance itself.
    Distance,
    /// The distance above the pattern databases' estimate.
    Residual,
}

pub(crate) fn run(a: TrainArgs) -> Result<ExitCode, Error> {
    let loss = Loss::parse(&a.loss).ok_or_else(|| {
        Error::Usage(format!(
            "--loss {}: expected mse or amse:ALPHA with 0 ≤ ALPHA < 1",
            a.loss
        ))
    })?;
    let target = match a.target {
        TargetArg::Distance => Target::Distance,
        TargetArg::Residual => Target::Residual,
    };
    let header = tilekit::learn::data::read(&a.data)
        .map_err(|e| Error::Usage(e.to_string()))?
        .header;
    let base = match target {
        Target::Residual => Some(
            tilekit::search::NativeSolver::new(
                header.rows,
                header.cols,
                &tilekit::search::NativeOptions::default(),
                &crate::progress_line,
            )
            .map_err(|e| Error::Usage(e.to_string()))?,
        ),
        Target::Distance => None,
    };
    let opts = TrainOptions {
        data: a.data,
        output: a.output,
        hidden: a.hidden,
        target,
        norm: !a.no_norm,
        dropout: a.dropout,
        loss,
        epochs: a.epochs,
        patience: a.patience,
        batch: a.batch,
        lr: a.lr,
        val_percent: a.val_percent,
        val_cap: a.val_cap,
        per_epoch: a.per_epoch,
        reflect: !a.no_reflect,
        seed: a.seed,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let m = train::train(&opts, base.as_ref(), &crate::progress_line).map_err(|e| match e {
        train::TrainError::Candle(_) | train::TrainError::Io { .. } => Error::failure(e),
        other => Error::Usage(other.to_string()),
    })?;
    crate::say(&format!(
        "{}: {} parameters, best epoch {} of {}, validation MSE {:.3}, {:.1} % exact when rounded, {:.1} % overestimated",
        opts.output.display(),
        m.network["parameters"],
        m.training["best_epoch"],
        m.training["epochs_run"],
        m.validation.mse,
        100.0 * m.validation.exact_rounded,
        100.0 * m.validation.over
    ))?;
    Ok(ExitCode::SUCCESS)
}
