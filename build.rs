//! Build script. Without the `cuda` feature it does nothing. With it, it compiles every
//! `csrc/*.cu` with nvcc into a fatbin (sm_80 and sm_90 code, compute_80 PTX) that the
//! library embeds, builds the kernels' per-element code for the host into a static
//! library the tests drive, and runs bindgen over `csrc/abi.h`.
//!
//! Always: sets the `shared_data` cfg when the real graphs and conformance cases are
//! there (`$EDGEBLAS_DATA`, or `../shared/data` beside the repository), so the tests that
//! need them are compiled `#[ignore]`d otherwise, and `cargo test` counts them as ignored
//! with the reason instead of passing them silently.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    shared_data(std::path::Path::new("../shared/data"));
    #[cfg(feature = "cuda")]
    cuda::build();
}

/// `cfg(shared_data)` when the data folder exists. A folder that appears later is seen
/// after `touch build.rs` (cargo is told to watch it only when it is there).
fn shared_data(default: &std::path::Path) {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo:rerun-if-env-changed=EDGEBLAS_DATA");
    let dir = std::env::var_os("EDGEBLAS_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| default.to_path_buf());
    if dir.is_dir() {
        println!("cargo:rerun-if-changed={}", dir.display());
        println!("cargo:rustc-cfg=shared_data");
    }
}

#[cfg(feature = "cuda")]
mod cuda {
    use std::env;
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    fn fail(msg: &str) -> ! {
        eprintln!("error: {msg}");
        panic!("{msg}");
    }

    /// nvcc from `NVCC`, the folder scripts/setup-cuda.sh fills, or PATH.
    fn find_nvcc(root: &Path) -> PathBuf {
        println!("cargo:rerun-if-env-changed=NVCC");
        if let Some(p) = env::var_os("NVCC") {
            let p = PathBuf::from(p);
            if p.is_file() {
                return p;
            }
            fail(&format!("NVCC={} is not a file", p.display()));
        }
        let lib = root.join(".cuda-venv").join("lib");
        if let Ok(dirs) = std::fs::read_dir(&lib) {
            for d in dirs.flatten() {
                let p = d.path().join("site-packages/nvidia/cu13/bin/nvcc");
                if p.is_file() {
                    return p;
                }
            }
        }
        if let Some(path) = env::var_os("PATH") {
            for dir in env::split_paths(&path) {
                let p = dir.join("nvcc");
                if p.is_file() {
                    return p;
                }
            }
        }
        fail(
            "the `cuda` feature needs nvcc 13.0: run scripts/setup-cuda.sh (it installs the \
             pinned nvcc into .cuda-venv/), or set NVCC=/path/to/nvcc",
        )
    }

    fn run(cmd: &mut Command) {
        let out = cmd
            .output()
            .unwrap_or_else(|e| fail(&format!("cannot run {cmd:?}: {e}")));
        if !out.status.success() {
            fail(&format!(
                "{cmd:?} failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }

    pub fn build() {
        let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
        let out = PathBuf::from(env::var("OUT_DIR").unwrap());
        let csrc = root.join("csrc");
        let nvcc = find_nvcc(&root);
        let mut sources: Vec<PathBuf> = std::fs::read_dir(&csrc)
            .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", csrc.display())))
            .flatten()
            .map(|e| e.path())
            .collect();
        sources.sort();
        for p in &sources {
            println!("cargo:rerun-if-changed={}", p.display());
        }
        println!("cargo:rerun-if-changed={}", csrc.join("host").display());

        // One fatbin per kernel file.
        let mut table = String::from("/// The kernels' fatbins, by file stem.\n");
        table.push_str("pub(crate) const FATBINS: &[(&str, &[u8])] = &[\n");
        for cu in sources
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        {
            let stem = cu.file_stem().unwrap().to_string_lossy().into_owned();
            let fatbin = out.join(format!("{stem}.fatbin"));
            run(Command::new(&nvcc)
                .args(["-fatbin", "-O3", "-std=c++17", "-lineinfo", "-fmad=false"])
                .args(["-gencode", "arch=compute_90,code=sm_90"])
                .args(["-gencode", "arch=compute_80,code=sm_80"])
                .args(["-gencode", "arch=compute_80,code=compute_80"])
                .arg("-o")
                .arg(&fatbin)
                .arg(cu));
            writeln!(
                table,
                "    ({stem:?}, include_bytes!({:?})),",
                fatbin.display().to_string()
            )
            .unwrap();
        }
        table.push_str("];\n");
        std::fs::write(out.join("fatbins.rs"), table).unwrap();

        // The per-element code for the host, as a static library.
        let host = csrc.join("host").join("host_kernels.cu");
        println!("cargo:rerun-if-changed={}", host.display());
        let obj = out.join("host_kernels.o");
        run(Command::new(&nvcc)
            .args([
                "-x",
                "c++",
                "-c",
                "-O2",
                "-std=c++17",
                "-Xcompiler",
                "-fPIC",
                "-Xcompiler",
                "-ffp-contract=off",
            ])
            .arg("-o")
            .arg(&obj)
            .arg(&host));
        let lib = out.join("libedgeblas_host_kernels.a");
        let _ = std::fs::remove_file(&lib);
        run(Command::new("ar").arg("crs").arg(&lib).arg(&obj));
        println!("cargo:rustc-link-search=native={}", out.display());
        println!("cargo:rustc-link-lib=static=edgeblas_host_kernels");

        // The shared structs and constants.
        let header = csrc.join("abi.h");
        let bindings = bindgen::Builder::default()
            .header(header.to_string_lossy())
            .allowlist_type("Eb.*")
            .allowlist_var("EB_.*")
            .default_macro_constant_type(bindgen::MacroTypeVariation::Unsigned)
            .derive_default(true)
            .derive_debug(true)
            .derive_copy(true)
            .generate()
            .unwrap_or_else(|e| {
                fail(&format!(
                    "bindgen over {} failed ({e}); it needs libclang: run scripts/setup-cuda.sh",
                    header.display()
                ))
            });
        bindings
            .write_to_file(out.join("abi.rs"))
            .unwrap_or_else(|e| fail(&format!("cannot write abi.rs: {e}")));
    }
}
