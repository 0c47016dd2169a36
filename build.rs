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
        // The device algebra: ops.cuh's templates instantiated per semiring and type.
        let ops = generate_ops(&out);
        let fatbin = out.join("ops.fatbin");
        run(Command::new(&nvcc)
            .args(["-fatbin", "-O3", "-std=c++17", "-lineinfo", "-fmad=false"])
            .args(["-gencode", "arch=compute_90,code=sm_90"])
            .args(["-gencode", "arch=compute_80,code=sm_80"])
            .args(["-gencode", "arch=compute_80,code=compute_80"])
            .arg("-I")
            .arg(&csrc)
            .arg("-o")
            .arg(&fatbin)
            .arg(&ops.device));
        writeln!(
            table,
            "    (\"ops\", include_bytes!({:?})),",
            fatbin.display().to_string()
        )
        .unwrap();
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
        let ops_obj = out.join("host_ops.o");
        run(Command::new(&nvcc)
            .args([
                "-x",
                "c++",
                "-c",
                "-O1",
                "-std=c++17",
                "-Xcompiler",
                "-fPIC",
                "-Xcompiler",
                "-ffp-contract=off",
            ])
            .arg("-I")
            .arg(&csrc)
            .arg("-o")
            .arg(&ops_obj)
            .arg(&ops.host));
        let lib = out.join("libedgeblas_host_kernels.a");
        let _ = std::fs::remove_file(&lib);
        run(Command::new("ar")
            .arg("crs")
            .arg(&lib)
            .arg(&obj)
            .arg(&ops_obj));
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
    /// The generated sources of the device algebra.
    struct Ops {
        device: PathBuf,
        host: PathBuf,
    }

    /// The numeric types of the arithmetic semirings: (Rust name, C type).
    const NUMBERS: &[(&str, &str)] = &[
        ("u32", "uint32_t"),
        ("u64", "uint64_t"),
        ("i32", "int32_t"),
        ("i64", "int64_t"),
        ("f32", "float"),
        ("f64", "double"),
    ];

    /// Writes `ops.cu` (the kernels), `host_ops.cc` (the same per-element code as host
    /// loops) and `ops_table.rs` (the host functions by kernel name) into `out`: one
    /// instance of each family of csrc/ops.cuh per built-in semiring (pull, push, mxm's
    /// saxpy and dot), monoid (reduce) or type (write-back, ewise, apply, fill, select,
    /// the matrix families' placement, sort, gather and write-back). Kernels are named
    /// `eb_{family}_{semiring}_{type}`, as `src/backend/cuda/ops.rs` looks them up.
    fn generate_ops(out: &Path) -> Ops {
        // (family, C call) pairs.
        let mut inst: Vec<(String, String)> = Vec::new();
        // Semirings: (name, add monoid, multiply, first term is the sum) over types.
        let arith: &[(&str, &str, &str)] = &[
            ("min_plus", "EbMinM", "EbMulMinPlus"),
            ("max_plus", "EbMaxM", "EbMulMaxPlus"),
            ("plus_times", "EbPlusM", "EbMulTimes"),
            ("max_times", "EbMaxM", "EbMulTimes"),
            ("min_max", "EbMinM", "EbMulMax"),
            ("plus_pair", "EbPlusM", "EbMulPair"),
            ("plus_first", "EbPlusM", "EbMulFirst"),
            ("min_first", "EbMinM", "EbMulFirst"),
            ("max_first", "EbMaxM", "EbMulFirst"),
            ("plus_second", "EbPlusM", "EbMulSecond"),
            ("min_second", "EbMinM", "EbMulSecond"),
            ("max_second", "EbMaxM", "EbMulSecond"),
        ];
        let mut semirings: Vec<(String, String, String, &str, bool)> = Vec::new();
        for (name, add, mul) in arith {
            for (ty, c) in NUMBERS {
                semirings.push((
                    format!("{name}_{ty}"),
                    format!("{add}<{c}>"),
                    format!("{mul}<{c}>"),
                    c,
                    false,
                ));
            }
        }
        for (name, add, mul, c, first) in [
            ("lor_land_bool", "EbLorM", "EbMulAnd<bool>", "bool", false),
            (
                "any_pair_bool",
                "EbAnyM<bool>",
                "EbMulPair<bool>",
                "bool",
                false,
            ),
            (
                "min_secondi_u32",
                "EbMinM<uint32_t>",
                "EbMulSecondI<uint32_t>",
                "uint32_t",
                true,
            ),
            (
                "any_secondi_u32",
                "EbAnyM<uint32_t>",
                "EbMulSecondI<uint32_t>",
                "uint32_t",
                false,
            ),
        ] {
            semirings.push((name.into(), add.into(), mul.into(), c, first));
        }
        for (name, add, mul, c, first) in &semirings {
            inst.push((
                format!("mxv_pull_{name}"),
                format!("eb_mxv_pull_row<{add}, {mul}, {c}, {first}>"),
            ));
            inst.push((
                format!("vxm_init_{name}"),
                format!("eb_vxm_init_slot<{add}, {c}>"),
            ));
            inst.push((
                format!("vxm_push_{name}"),
                format!("eb_vxm_push_entry<{add}, {mul}, {c}>"),
            ));
            inst.push((
                format!("mxm_saxpy_{name}"),
                format!("eb_saxpy_row<{add}, {mul}, {c}, {first}>"),
            ));
            inst.push((
                format!("mxm_dot_{name}"),
                format!("eb_dot_row<{add}, {mul}, {c}, {first}>"),
            ));
        }
        // The matrix families that do not depend on the value type.
        inst.push(("transpose_count".into(), "eb_transpose_count_row".into()));
        inst.push(("saxpy_slots".into(), "eb_saxpy_slots_row".into()));
        inst.push(("cdlp_mode_u32".into(), "eb_cdlp_mode_row".into()));
        let mut all: Vec<(&str, &str)> = NUMBERS.to_vec();
        all.push(("bool", "bool"));
        all.push(("unit", "EbUnit"));
        for (ty, c) in &all {
            for fam in [
                "write",
                "ewise_add",
                "ewise_mult",
                "apply",
                "fill",
                "select",
                "transpose_place",
                "sort_row",
                "saxpy_gather",
                "matrix_write",
                "gather",
            ] {
                let f = match fam {
                    "write" => "eb_write_word",
                    "ewise_add" => "eb_ewise_add_word",
                    "ewise_mult" => "eb_ewise_mult_word",
                    "fill" => "eb_fill_word",
                    "select" => "eb_select_word",
                    "transpose_place" => "eb_transpose_place_row",
                    "sort_row" => "eb_sort_row",
                    "saxpy_gather" => "eb_saxpy_gather_row",
                    "matrix_write" => "eb_matrix_write_row",
                    "gather" => "eb_gather_word",
                    _ => "eb_apply_word",
                };
                inst.push((format!("{fam}_{ty}"), format!("{f}<{c}>")));
            }
        }
        for (m, tmpl) in [
            ("min", "EbMinM"),
            ("max", "EbMaxM"),
            ("plus", "EbPlusM"),
            ("times", "EbTimesM"),
            ("any", "EbAnyM"),
        ] {
            for (ty, c) in NUMBERS {
                inst.push((
                    format!("reduce_{m}_{ty}"),
                    format!("eb_reduce_segment<{tmpl}<{c}>, {c}>"),
                ));
            }
        }
        // assign_reduce's scatter: the monoids whose sum is the same bytes in any order
        // of the terms and from the identity (integers; OR and AND over bool), so that the
        // device's compare-and-swap gives the CPU's result.
        let mut scatter: Vec<(String, String)> = Vec::new();
        for (m, tmpl) in [
            ("min", "EbMinM"),
            ("max", "EbMaxM"),
            ("plus", "EbPlusM"),
            ("times", "EbTimesM"),
        ] {
            for (ty, c) in NUMBERS.iter().filter(|(t, _)| !t.starts_with('f')) {
                scatter.push((format!("{m}_{ty}"), format!("{tmpl}<{c}>, {c}")));
            }
        }
        scatter.push(("lor_bool".into(), "EbLorM, bool".into()));
        scatter.push(("land_bool".into(), "EbLandM, bool".into()));
        for (name, args) in scatter {
            inst.push((
                format!("slot_init_{name}"),
                format!("eb_vxm_init_slot<{args}>"),
            ));
            inst.push((
                format!("scatter_{name}"),
                format!("eb_scatter_entry<{args}>"),
            ));
        }
        for (m, tmpl) in [
            ("lor", "EbLorM"),
            ("land", "EbLandM"),
            ("lxor", "EbLxorM"),
            ("any", "EbAnyM<bool>"),
        ] {
            inst.push((
                format!("reduce_{m}_bool"),
                format!("eb_reduce_segment<{tmpl}, bool>"),
            ));
        }

        let mut dev = String::from(
            "/* Generated by build.rs: the kernels of csrc/ops.cuh, one per instance. */\n\
             #include \"ops.cuh\"\n\n",
        );
        let mut host = String::from(
            "/* Generated by build.rs: csrc/ops.cuh's per-element code as host loops. */\n\
             #define EB_HOST_ONLY 1\n#include \"ops.cuh\"\n\nextern \"C\" {\n",
        );
        let mut table = String::from(
            "// Generated by build.rs: the host form of every device-algebra kernel.\n\
             unsafe extern \"C\" {\n",
        );
        for (name, call) in &inst {
            writeln!(
                dev,
                "extern \"C\" __global__ void eb_{name}(EbOpParams p) {{\n    \
                 for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.items;\n         \
                 i += (uint64_t)gridDim.x * blockDim.x)\n        {call}(&p, i);\n}}"
            )
            .unwrap();
            writeln!(
                host,
                "void eb_host_{name}(const EbOpParams *p) {{\n    \
                 for (uint64_t i = 0; i < p->items; i++) {call}(p, i);\n}}"
            )
            .unwrap();
            writeln!(table, "    fn eb_host_{name}(p: *const EbOpParams);").unwrap();
        }
        host.push_str("}\n");
        table.push_str("}\n\n/// Host functions by kernel name.\n");
        table.push_str(
            "pub(crate) static HOST_OPS: &[(&str, unsafe extern \"C\" fn(*const EbOpParams))] = &[\n",
        );
        for (name, _) in &inst {
            writeln!(table, "    (\"eb_{name}\", eb_host_{name}),").unwrap();
        }
        table.push_str("];\n");
        let device = out.join("ops.cu");
        let host_path = out.join("host_ops.cc");
        std::fs::write(&device, dev).unwrap();
        std::fs::write(&host_path, host).unwrap();
        std::fs::write(out.join("ops_table.rs"), table).unwrap();
        Ops {
            device,
            host: host_path,
        }
    }
}
