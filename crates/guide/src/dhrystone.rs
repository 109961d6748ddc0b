//! Dhrystone 2.1, written in Rust from the published algorithm (Weicker's procedures Proc_1 …
//! Proc_8, Func_1 … Func_3, the two records, the 30-character strings and the two global
//! arrays). One "Dhrystone" is one pass of the main loop; DMIPS = Dhrystones/s / 1757 (the
//! VAX 11/780's rate, rated 1 MIPS), DMIPS/MHz divides by the measured clock.
//!
//! The C program is split into two files so its procedures are not inlined into the loop; here
//! every procedure is `#[inline(never)]` for the same reason, and the global state goes through
//! `black_box` once per pass so the optimiser cannot fold the (deterministic) loop away. It is a
//! different program from a C build: its figure is labelled and not comparable one-to-one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use document::guide::{GuideTable, GuideValue};

use crate::registry::Outcome;
use crate::repeat::{self, Plan};
use crate::{Context, pinning};

/// Dhrystones per second of the VAX 11/780 (1 MIPS).
pub const VAX_DHRYSTONES_PER_S: f64 = 1757.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enumeration {
    Ident1,
    Ident2,
    Ident3,
    Ident4,
    Ident5,
}
use Enumeration::*;

type Str30 = [u8; 30];

const SOME_STRING: &Str30 = b"DHRYSTONE PROGRAM, SOME STRING";
const FIRST_STRING: &Str30 = b"DHRYSTONE PROGRAM, 1'ST STRING";
const SECOND_STRING: &Str30 = b"DHRYSTONE PROGRAM, 2'ND STRING";
const THIRD_STRING: &Str30 = b"DHRYSTONE PROGRAM, 3'RD STRING";

/// The record type (variant 1 of the C union: Enum_Comp, Int_Comp, Str_Comp).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// Index of the record this one points to (the two records live in [`State::records`]).
    pub ptr_comp: usize,
    pub discr: Enumeration,
    pub enum_comp: Enumeration,
    pub int_comp: i32,
    pub str_comp: Str30,
}

/// The program's global variables.
#[derive(Debug, Clone)]
pub struct State {
    /// `[Ptr_Glob, Next_Ptr_Glob]`.
    pub records: [Record; 2],
    pub int_glob: i32,
    pub bool_glob: bool,
    pub ch_1_glob: u8,
    pub ch_2_glob: u8,
    pub arr_1_glob: [i32; 50],
    pub arr_2_glob: Box<[[i32; 50]; 50]>,
}

const PTR_GLOB: usize = 0;
const NEXT_PTR_GLOB: usize = 1;

/// The main procedure's locals after the last pass (checked by the self-test).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locals {
    pub int_1_loc: i32,
    pub int_2_loc: i32,
    pub int_3_loc: i32,
    pub enum_loc: Enumeration,
    pub str_1_loc: Str30,
    pub str_2_loc: Str30,
}

impl State {
    /// The initialisation before the timed loop.
    pub fn new() -> State {
        let rec = Record {
            ptr_comp: NEXT_PTR_GLOB,
            discr: Ident1,
            enum_comp: Ident3,
            int_comp: 40,
            str_comp: *SOME_STRING,
        };
        let mut arr_2_glob = Box::new([[0i32; 50]; 50]);
        arr_2_glob[8][7] = 10;
        State {
            records: [
                rec,
                Record {
                    ptr_comp: 0,
                    discr: Ident1,
                    enum_comp: Ident1,
                    int_comp: 0,
                    str_comp: [0; 30],
                },
            ],
            int_glob: 0,
            bool_glob: false,
            ch_1_glob: 0,
            ch_2_glob: 0,
            arr_1_glob: [0; 50],
            arr_2_glob,
        }
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}

/// Runs passes `first..=last` of the main loop on `g` (run numbers matter: Int_Glob may take
/// the run index). Returns the main procedure's locals after the last pass.
pub fn run(g: &mut State, first: u64, last: u64) -> Locals {
    let mut str_1_loc: Str30 = *black_box(FIRST_STRING);
    let mut str_2_loc: Str30 = [0; 30];
    let (mut int_1_loc, mut int_2_loc, mut int_3_loc) = (0i32, 0i32, 0i32);
    let mut enum_loc = Ident1;
    for run_index in first..=last {
        let g = black_box(&mut *g);
        proc_5(g);
        proc_4(g);
        int_1_loc = 2;
        int_2_loc = 3;
        str_2_loc.copy_from_slice(black_box(SECOND_STRING));
        enum_loc = Ident2;
        g.bool_glob = !func_2(g, &str_1_loc, &str_2_loc);
        while int_1_loc < int_2_loc {
            int_3_loc = 5 * int_1_loc - int_2_loc;
            proc_7(int_1_loc, int_2_loc, &mut int_3_loc);
            int_1_loc += 1;
        }
        proc_8(
            &mut g.arr_1_glob,
            &mut g.arr_2_glob,
            int_1_loc,
            int_3_loc,
            &mut g.int_glob,
        );
        proc_1(g, PTR_GLOB);
        let mut ch_index = b'A';
        while ch_index <= g.ch_2_glob {
            if enum_loc == func_1(g, ch_index, b'C') {
                proc_6(g, Ident1, &mut enum_loc);
                str_2_loc.copy_from_slice(black_box(THIRD_STRING));
                int_2_loc = run_index as i32;
                g.int_glob = run_index as i32;
            }
            ch_index += 1;
        }
        int_2_loc = int_2_loc.wrapping_mul(int_1_loc);
        int_1_loc = int_2_loc / int_3_loc;
        int_2_loc = 7i32
            .wrapping_mul(int_2_loc.wrapping_sub(int_3_loc))
            .wrapping_sub(int_1_loc);
        proc_2(g, &mut int_1_loc);
        black_box(&mut str_1_loc);
    }
    Locals {
        int_1_loc,
        int_2_loc,
        int_3_loc,
        enum_loc,
        str_1_loc,
        str_2_loc,
    }
}

#[inline(never)]
fn proc_1(g: &mut State, ptr_val_par: usize) {
    let next = g.records[ptr_val_par].ptr_comp;
    g.records[next] = g.records[PTR_GLOB];
    g.records[ptr_val_par].int_comp = 5;
    g.records[next].int_comp = g.records[ptr_val_par].int_comp;
    g.records[next].ptr_comp = g.records[ptr_val_par].ptr_comp;
    let mut p = g.records[next].ptr_comp;
    proc_3(g, &mut p);
    g.records[next].ptr_comp = p;
    if g.records[next].discr == Ident1 {
        g.records[next].int_comp = 6;
        let mut e = g.records[next].enum_comp;
        proc_6(g, g.records[ptr_val_par].enum_comp, &mut e);
        g.records[next].enum_comp = e;
        g.records[next].ptr_comp = g.records[PTR_GLOB].ptr_comp;
        let mut i = g.records[next].int_comp;
        proc_7(i, 10, &mut i);
        g.records[next].int_comp = i;
    } else {
        let from = g.records[ptr_val_par].ptr_comp;
        g.records[ptr_val_par] = g.records[from];
    }
}

#[inline(never)]
fn proc_2(g: &State, int_par_ref: &mut i32) {
    let mut int_loc = *int_par_ref + 10;
    let mut enum_loc = Ident2;
    loop {
        if g.ch_1_glob == b'A' {
            int_loc -= 1;
            *int_par_ref = int_loc - g.int_glob;
            enum_loc = Ident1;
        }
        if enum_loc == Ident1 {
            break;
        }
    }
}

#[inline(never)]
fn proc_3(g: &mut State, ptr_ref_par: &mut usize) {
    // Ptr_Glob is never null here.
    *ptr_ref_par = g.records[PTR_GLOB].ptr_comp;
    let mut i = g.records[PTR_GLOB].int_comp;
    proc_7(10, g.int_glob, &mut i);
    g.records[PTR_GLOB].int_comp = i;
}

#[inline(never)]
fn proc_4(g: &mut State) {
    let bool_loc = g.ch_1_glob == b'A';
    g.bool_glob |= bool_loc;
    g.ch_2_glob = b'B';
}

#[inline(never)]
fn proc_5(g: &mut State) {
    g.ch_1_glob = b'A';
    g.bool_glob = false;
}

#[inline(never)]
fn proc_6(g: &State, enum_val_par: Enumeration, enum_ref_par: &mut Enumeration) {
    *enum_ref_par = enum_val_par;
    if !func_3(enum_val_par) {
        *enum_ref_par = Ident4;
    }
    match enum_val_par {
        Ident1 => *enum_ref_par = Ident1,
        Ident2 => {
            *enum_ref_par = if g.int_glob > 100 { Ident1 } else { Ident4 };
        }
        Ident3 => *enum_ref_par = Ident2,
        Ident4 => {}
        Ident5 => *enum_ref_par = Ident3,
    }
}

#[inline(never)]
fn proc_7(int_1_par_val: i32, int_2_par_val: i32, int_par_ref: &mut i32) {
    let int_loc = int_1_par_val + 2;
    *int_par_ref = int_2_par_val + int_loc;
}

#[inline(never)]
fn proc_8(
    arr_1: &mut [i32; 50],
    arr_2: &mut [[i32; 50]; 50],
    int_1_par_val: i32,
    int_2_par_val: i32,
    int_glob: &mut i32,
) {
    let int_loc = (int_1_par_val + 5) as usize;
    arr_1[int_loc] = int_2_par_val;
    arr_1[int_loc + 1] = arr_1[int_loc];
    arr_1[int_loc + 30] = int_loc as i32;
    for v in &mut arr_2[int_loc][int_loc..=int_loc + 1] {
        *v = int_loc as i32;
    }
    // Counts the passes: wraps like C's int after 2^31 of them (a fast core gets there in a
    // minute).
    arr_2[int_loc][int_loc - 1] = arr_2[int_loc][int_loc - 1].wrapping_add(1);
    arr_2[int_loc + 20][int_loc] = arr_1[int_loc];
    *int_glob = 5;
}

#[inline(never)]
fn func_1(g: &mut State, ch_1_par_val: u8, ch_2_par_val: u8) -> Enumeration {
    let ch_1_loc = ch_1_par_val;
    let ch_2_loc = ch_1_loc;
    if ch_2_loc != ch_2_par_val {
        Ident1
    } else {
        g.ch_1_glob = ch_1_loc;
        Ident2
    }
}

#[inline(never)]
fn func_2(g: &mut State, str_1_par_ref: &Str30, str_2_par_ref: &Str30) -> bool {
    let mut int_loc = 2usize;
    let mut ch_loc = 0u8;
    while int_loc <= 2 {
        if func_1(g, str_1_par_ref[int_loc], str_2_par_ref[int_loc + 1]) == Ident1 {
            ch_loc = b'A';
            int_loc += 1;
        }
    }
    if (b'W'..b'Z').contains(&ch_loc) {
        int_loc = 7;
    }
    if ch_loc == b'R' {
        true
    } else if strcmp(str_1_par_ref, str_2_par_ref) > 0 {
        int_loc += 7;
        g.int_glob = int_loc as i32;
        true
    } else {
        false
    }
}

/// strcmp over the 30 bytes, byte by byte as the C library's generic version does.
#[inline(never)]
fn strcmp(a: &Str30, b: &Str30) -> i32 {
    for i in 0..a.len() {
        if a[i] != b[i] {
            return a[i] as i32 - b[i] as i32;
        }
    }
    0
}

#[inline(never)]
fn func_3(enum_par_val: Enumeration) -> bool {
    enum_par_val == Ident3
}

/// Compares the state after `runs` passes with the values Dhrystone 2.1 prints as "should be";
/// returns the mismatches.
pub fn self_check(g: &State, l: &Locals, runs: u64) -> Vec<String> {
    let mut bad = Vec::new();
    let mut check = |what: &str, got: String, want: String| {
        if got != want {
            bad.push(format!("{what}: {got}, should be {want}"));
        }
    };
    let p = &g.records[PTR_GLOB];
    let n = &g.records[NEXT_PTR_GLOB];
    check("Int_Glob", g.int_glob.to_string(), "5".into());
    check("Bool_Glob", g.bool_glob.to_string(), "true".into());
    check("Ch_1_Glob", (g.ch_1_glob as char).into(), "A".into());
    check("Ch_2_Glob", (g.ch_2_glob as char).into(), "B".into());
    check("Arr_1_Glob[8]", g.arr_1_glob[8].to_string(), "7".into());
    check(
        "Arr_2_Glob[8][7]",
        g.arr_2_glob[8][7].to_string(),
        ((runs as i64 + 10) as i32).to_string(),
    );
    check("Ptr_Glob->Discr", format!("{:?}", p.discr), "Ident1".into());
    check(
        "Ptr_Glob->Enum_Comp",
        format!("{:?}", p.enum_comp),
        "Ident3".into(),
    );
    check("Ptr_Glob->Int_Comp", p.int_comp.to_string(), "17".into());
    check("Ptr_Glob->Str_Comp", lossy(&p.str_comp), lossy(SOME_STRING));
    check(
        "Next_Ptr_Glob->Discr",
        format!("{:?}", n.discr),
        "Ident1".into(),
    );
    check(
        "Next_Ptr_Glob->Enum_Comp",
        format!("{:?}", n.enum_comp),
        "Ident2".into(),
    );
    check(
        "Next_Ptr_Glob->Int_Comp",
        n.int_comp.to_string(),
        "18".into(),
    );
    check(
        "Next_Ptr_Glob->Str_Comp",
        lossy(&n.str_comp),
        lossy(SOME_STRING),
    );
    check("Int_1_Loc", l.int_1_loc.to_string(), "5".into());
    check("Int_2_Loc", l.int_2_loc.to_string(), "13".into());
    check("Int_3_Loc", l.int_3_loc.to_string(), "7".into());
    check("Enum_Loc", format!("{:?}", l.enum_loc), "Ident2".into());
    check("Str_1_Loc", lossy(&l.str_1_loc), lossy(FIRST_STRING));
    check("Str_2_Loc", lossy(&l.str_2_loc), lossy(SECOND_STRING));
    bad
}

fn lossy(s: &[u8]) -> String {
    String::from_utf8_lossy(s).into_owned()
}

/// DMIPS from Dhrystones per second.
pub fn dmips(dhrystones_per_s: f64) -> f64 {
    dhrystones_per_s / VAX_DHRYSTONES_PER_S
}

/// The section: Dhrystones/s pinned to one core, DMIPS/MHz from the measured clock.
pub fn section(ctx: &Context) -> Outcome {
    let (cpu, mhz) = pinning::single_thread_cpu(ctx);
    let plan = Plan::for_context(ctx, Duration::from_secs(50));
    let cancel = || ctx.cancelled();
    let ((samples, bad), pin_note) = pinning::on_cpu(cpu, || {
        let mut g = State::new();
        let mut done = 0u64;
        let mut last = None;
        let s = repeat::measure(plan, &cancel, |n| {
            let t = Instant::now();
            last = Some(run(&mut g, done + 1, done + n));
            let e = t.elapsed();
            done += n;
            e
        });
        let bad = last.map(|l| self_check(&g, &l, done)).unwrap_or_default();
        (s, bad)
    });
    let mut out = Outcome::default();
    let mut table = GuideTable::perf("Dhrystone Benchmarks", "Benchmarks");
    let per_s = GuideValue::from_samples(&samples.rates);
    table.push("cpu_clock (MHz)", mhz.map(GuideValue::one));
    let per_mhz = match (&per_s, mhz) {
        (Some(v), Some(m)) if m > 0.0 => Some(scale(v, 1.0 / VAX_DHRYSTONES_PER_S / m)),
        _ => None,
    };
    table.push("dhrystone_per_mhz (DMIPS/MHz)", per_mhz);
    table.push("dhrystone_per_second (DhrystoneP)", per_s.clone());
    out.tables.push(table);
    if let Some(v) = &per_s {
        out.notes.push(format!(
            "Dhrystone 2.1 in Rust (boardbench's port), pinned to CPU {cpu}: {} passes per sample, {} samples; DMIPS = {:.1}. A Rust build is a different program from a C build with the compiler's strcpy/strcmp builtins: compare DMIPS only with boardbench runs — beside a published guide (`guide render --reference`) dhrystone_per_second and dhrystone_per_mhz get no ratio (\"port\"); cpu_clock, the clock measured alike, compares.",
            samples.iterations,
            v.samples,
            dmips(v.value)
        ));
    }
    if mhz.is_none() {
        out.notes
            .push("No measured clock for this CPU: DMIPS/MHz not given.".into());
    }
    out.notes.extend(pin_note);
    if !bad.is_empty() {
        out.failed = Some(format!("self-check failed: {}", bad.join("; ")));
    }
    out
}

/// `v` with value, min and max multiplied by `f`.
pub(crate) fn scale(v: &GuideValue, f: f64) -> GuideValue {
    GuideValue {
        value: v.value * f,
        min: v.min.map(|x| x * f),
        max: v.max.map(|x| x * f),
        ..v.clone()
    }
}
