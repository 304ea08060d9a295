import Std.Data.HashMap
import Std.Data.HashSet
import Lean

/-!
# `audit`: kernel evidence for the `missions` catalog

`audit --request REQ.json --out OUT.json` imports every requested module **once** and reports, per
requested declaration, what the imported (kernel-checked) environment says about it: whether it
exists, its kind, its universe parameters, two hashes of its type, whether the type is `Prop`, a
fingerprint of the value of a `Prop`-valued definition, every axiom it reaches, its safety, and
whether a proof's type is exactly its statement constant; for a statement, fingerprints of what
it means (its value, the workspace definitions it unfolds to, its whole closure); for a proof, the
workspace constants it uses. The format is specified in `docs/audit-format.md`
(`missions-audit/2`); `tools/missions/kernel.py` consumes it.

Design notes (see the doc for the reasons):
* Lean core only (`import Lean`). The environment comes from `importModules … (loadExts := false)`:
  only the constant map is used, so no environment extension is initialised, no interpreter is
  needed (no `supportInterpreter`), and nothing here is `unsafe`.
* Axioms come from our own memoised walk over constants (an iterative Tarjan SCC pass, so cycles
  such as inductive ⇄ constructor are handled exactly and nothing recurses on the call stack). We do
  not call `Lean.collectAxioms`: from 4.30 it reads per-module precomputed axiom sets that
  under-report for imported inductives (lean4#15226).
* The compacted regions of the import are never freed (the process exits), so `Name`s and `Expr`s
  taken from the environment stay valid until the report is written.
-/

open Lean

namespace Audit

/-! ## Names -/

private def digitsToNat (s : String) : Nat :=
  s.toList.foldl (fun n c => n * 10 + (c.toNat - '0'.toNat)) 0

/-- Parse a dotted name. A component written `«…»` is taken verbatim (it may contain dots); an
unescaped all-digit component is numeric (as in `_private.Formal.MAE.Proofs.0.Formal.MAE.goal`), so
the output of `Name.toString` parses back. Empty components are rejected. -/
def parseDotted (s : String) : Except String Name := Id.run do
  let mut comps : Array (String × Bool) := #[]
  let mut cur : String := ""
  let mut escaped : Bool := false
  let mut inEsc : Bool := false
  for c in s.toList do
    if inEsc then
      if c == '»' then
        inEsc := false
      else
        cur := cur.push c
    else if c == '«' then
      inEsc := true
      escaped := true
    else if c == '.' then
      comps := comps.push (cur, escaped)
      cur := ""
      escaped := false
    else
      cur := cur.push c
  if inEsc then
    return Except.error s!"unterminated «…» in name '{s}'"
  comps := comps.push (cur, escaped)
  let mut n : Name := Name.anonymous
  for (part, esc) in comps do
    if part == "" && !esc then
      return Except.error s!"empty component in name '{s}'"
    if !esc && part.toList.all Char.isDigit then
      n := Name.mkNum n (digitsToNat part)
    else
      n := Name.mkStr n part
  return Except.ok n

/-! ## Kinds -/

def kindString : ConstantInfo → String
  | .axiomInfo _  => "axiom"
  | .defnInfo _   => "def"
  | .thmInfo _    => "theorem"
  | .opaqueInfo _ => "opaque"
  | .quotInfo _   => "quot"
  | .inductInfo _ => "inductive"
  | .ctorInfo _   => "constructor"
  | .recInfo _    => "recursor"

/-! ## Axioms: a memoised, iterative walk over constants -/

/-- The constants a constant's axiom set is computed from. Values are read by matching the
constructor (not `ConstantInfo.value?`, whose meaning for theorems changed with `allowOpaque`). -/
def constDeps (ci : ConstantInfo) : Array Name :=
  let ty := ci.type.getUsedConstants
  match ci with
  | .axiomInfo _    => ty
  | .defnInfo v     => ty ++ v.value.getUsedConstants
  | .thmInfo v      => ty ++ v.value.getUsedConstants
  | .opaqueInfo v   => ty ++ v.value.getUsedConstants
  | .quotInfo _     => #[]
  | .inductInfo v   => ty ++ v.ctors.toArray ++ v.all.toArray
  | .ctorInfo v     => ty.push v.induct
  | .recInfo v      =>
    v.rules.foldl (init := ty ++ v.all.toArray) fun acc r =>
      (acc.push r.ctor) ++ r.rhs.getUsedConstants

def unionSets (a b : NameSet) : NameSet := Id.run do
  let mut r := a
  for n in b do
    r := r.insert n
  return r

/-- Axiom names as strings (`Name.toString`, as `#print axioms` prints them), code-point sorted. -/
def sortedNames (s : NameSet) : Array String := Id.run do
  let mut out : Array String := #[]
  for n in s do
    out := out.push n.toString
  return out.qsort (fun a b => decide (a < b))

/-- For every constant whose strongly connected component is finished: every axiom it reaches. -/
abbrev AxCache := Std.HashMap Name NameSet

/-- An axiom reaches itself; nothing else contributes on its own. -/
def ownAxiom (ci : ConstantInfo) : NameSet :=
  match ci with
  | .axiomInfo v => ({} : NameSet).insert v.name
  | _ => {}

structure WalkFrame where
  node : Name
  deps : Array Name
  next : Nat := 0
  deriving Inhabited

/-- The axioms reachable from `root` (an axiom reaches itself), extending the shared cache.

Iterative Tarjan: constants on one dependency cycle (an inductive and its constructors, a recursor
and its rules, …) form one strongly connected component and all get the union of what the component
reaches, so a cycle never truncates a set (unlike a "mark in progress with ∅" memo). Constants that
are not in the environment (impossible after a successful import) contribute nothing. -/
def axiomsOf (env : Environment) (cache : AxCache) (root : Name) : NameSet × AxCache := Id.run do
  let mut done := cache
  if let some s := done[root]? then
    return (s, done)
  let mut index : Std.HashMap Name Nat := {}
  let mut low : Std.HashMap Name Nat := {}
  let mut acc : Std.HashMap Name NameSet := {}
  let mut onStack : Std.HashSet Name := {}
  let mut sccStack : Array Name := #[]
  let mut calls : Array WalkFrame := #[]
  let mut counter : Nat := 0
  let mut toOpen : Option Name := some root
  repeat
    match toOpen with
    | some v =>
      toOpen := none
      match env.find? v with
      | none =>
        done := done.insert v {}
      | some ci =>
        index := index.insert v counter
        low := low.insert v counter
        counter := counter + 1
        sccStack := sccStack.push v
        onStack := onStack.insert v
        acc := acc.insert v (ownAxiom ci)
        calls := calls.push { node := v, deps := constDeps ci }
    | none =>
      if calls.isEmpty then
        break
      let f := calls.back!
      if f.next < f.deps.size then
        let w := f.deps[f.next]!
        calls := calls.pop.push { f with next := f.next + 1 }
        match done[w]? with
        | some s =>
          acc := acc.insert f.node (unionSets ((acc[f.node]?).getD {}) s)
        | none =>
          if onStack.contains w then
            low := low.insert f.node (min ((low[f.node]?).getD 0) ((index[w]?).getD 0))
          else
            toOpen := some w
      else
        calls := calls.pop
        let v := f.node
        let lv := (low[v]?).getD 0
        if lv == (index[v]?).getD 0 then
          -- `v` is the root of a finished component: pop it and give every member the union.
          let mut total : NameSet := {}
          let mut members : Array Name := #[]
          repeat
            if sccStack.isEmpty then
              break
            let w := sccStack.back!
            sccStack := sccStack.pop
            onStack := onStack.erase w
            members := members.push w
            total := unionSets total ((acc[w]?).getD {})
            acc := acc.erase w
            if w == v then
              break
          for m in members do
            done := done.insert m total
        match calls.back? with
        | none => pure ()
        | some p =>
          match done[v]? with
          | some s => acc := acc.insert p.node (unionSets ((acc[p.node]?).getD {}) s)
          | none => low := low.insert p.node (min ((low[p.node]?).getD 0) lv)
  return ((done[root]?).getD {}, done)

/-! ## Type fingerprints

A canonical serialization of an `Expr`, hashed to 64 bits (`String.hash`). The serialization lists
every distinct node once, children before parents, in first-completion order of a left-to-right
post-order walk, each line naming its children by line number:

* `B i` bound variable (de Bruijn index), `S lvl` sort, `C name [lvl …]` constant with its levels,
* `A f a` application, `L t b` lambda, `P t b` forall, `E t v b` let (the `nonDep` flag ignored),
* `N n` / `T len:str` literals, `J struct idx e` projection, `F`/`M` free/meta variables (never in
  imported constants);
* binder names, binder annotations and `mdata` are dropped (an `mdata` node is its child).

Lines are deduplicated by their text, so equal subterms share one line however they are shared in
memory; the result depends only on the term, never on pointer sharing, and its size is linear in
the term's DAG (an `Expr` DAG can be exponentially larger written out as a tree). Names and strings
inside a line are length-prefixed, so the encoding is unambiguous. -/

def encName : Name → String
  | .anonymous => ""
  | .str p s   => encName p ++ "s" ++ toString s.length ++ ":" ++ s
  | .num p k   => encName p ++ "n" ++ toString k ++ ";"

def encLevel : Level → String
  | .zero     => "z"
  | .succ l   => "(s " ++ encLevel l ++ ")"
  | .max a b  => "(m " ++ encLevel a ++ " " ++ encLevel b ++ ")"
  | .imax a b => "(i " ++ encLevel a ++ " " ++ encLevel b ++ ")"
  | .param n  => "(p " ++ encName n ++ ")"
  | .mvar m   => "(v " ++ encName m.name ++ ")"

/-- The line of a node whose children already have line numbers in `memo`. -/
def nodeLine (memo : Std.HashMap Expr Nat) (x : Expr) : String :=
  let idOf (y : Expr) : String := toString ((memo[y]?).getD 0)
  match x with
  | .bvar i             => "B " ++ toString i
  | .fvar fv            => "F " ++ encName fv.name
  | .mvar mv            => "M " ++ encName mv.name
  | .sort l             => "S " ++ encLevel l
  | .const n ls         => "C " ++ encName n ++ " [" ++ " ".intercalate (ls.map encLevel) ++ "]"
  | .app f a            => "A " ++ idOf f ++ " " ++ idOf a
  | .lam _ t b _        => "L " ++ idOf t ++ " " ++ idOf b
  | .forallE _ t b _    => "P " ++ idOf t ++ " " ++ idOf b
  | .letE _ t v b _     => "E " ++ idOf t ++ " " ++ idOf v ++ " " ++ idOf b
  | .lit (.natVal k)    => "N " ++ toString k
  | .lit (.strVal s)    => "T " ++ toString s.length ++ ":" ++ s
  | .mdata _ b          => "D " ++ idOf b -- not used: `mdata` takes its child's line
  | .proj s i b         => "J " ++ encName s ++ " " ++ toString i ++ " " ++ idOf b

/-- The 64-bit fingerprint (decimal string) of the canonical serialization of `e`. Iterative. -/
def exprFingerprint (e : Expr) : String := Id.run do
  -- `memo` is keyed by `Expr` (`BEq Expr` is `Expr.eqv`, which also ignores binder names and
  -- annotations); it only avoids revisiting, the line numbers come from `ids` (keyed by text).
  let mut memo : Std.HashMap Expr Nat := {}
  let mut ids : Std.HashMap String Nat := {}
  let mut lines : Array String := #[]
  let mut stack : Array (Expr × Bool) := #[(e, false)]
  while !stack.isEmpty do
    let (x, post) := stack.back!
    stack := stack.pop
    if memo.contains x then
      continue
    if !post then
      stack := stack.push (x, true)
      match x with
      | .app f a         => stack := (stack.push (a, false)).push (f, false)
      | .lam _ t b _     => stack := (stack.push (b, false)).push (t, false)
      | .forallE _ t b _ => stack := (stack.push (b, false)).push (t, false)
      | .letE _ t v b _  => stack := ((stack.push (b, false)).push (v, false)).push (t, false)
      | .mdata _ b       => stack := stack.push (b, false)
      | .proj _ _ b      => stack := stack.push (b, false)
      | _                => pure ()
    else
      match x with
      | .mdata _ b =>
        let i := (memo[b]?).getD 0
        memo := memo.insert x i
      | _ =>
        let line := nodeLine memo x
        match ids[line]? with
        | some i =>
          memo := memo.insert x i
        | none =>
          let i := lines.size
          ids := ids.insert line i
          lines := lines.push line
          memo := memo.insert x i
  let rootId := (memo[e]?).getD 0
  let body := "\n".intercalate lines.toList ++ "\n^" ++ toString rootId
  return toString (Hashable.hash body)

/-! ## Where a constant comes from -/

/-- The module a constant was imported from (`none` for constants not in the environment). -/
def moduleOf (env : Environment) (n : Name) : Option Name :=
  match env.getModuleIdxFor? n with
  | some idx => env.header.moduleNames[idx.toNat]?
  | none => none

/-- Whether a constant comes from a workspace module: one whose name has a requested prefix. -/
def inWorkspace (env : Environment) (prefixes : Array Name) (n : Name) : Bool :=
  match moduleOf env n with
  | some m => prefixes.any fun p => p.isPrefixOf m
  | none => false

/-! ## What a statement means

A statement's meaning is fixed by its own value and by every constant it reaches through types
and definitional values: a definition's value can be unfolded by the kernel, so it is followed; a
theorem's proof cannot change what anything means (proof irrelevance), an opaque's value is
invisible to the kernel and an axiom has none, so only their types are followed. Each constant's
own fingerprint is a hash of its kind, universe parameters, type and (for definitions) value, plus
the shape data of inductives and constructors. -/

/-- The constants the meaning of a constant depends on (see above). -/
def meaningDeps (ci : ConstantInfo) : Array Name :=
  let ty := ci.type.getUsedConstants
  match ci with
  | .defnInfo v   => ty ++ v.value.getUsedConstants
  | .inductInfo v => ty ++ v.ctors.toArray ++ v.all.toArray
  | .ctorInfo v   => ty.push v.induct
  | .recInfo v    => ty ++ v.all.toArray
  | _             => ty

/-- The canonical text a constant's fingerprint hashes (names length-prefixed by `encName`). -/
def constantLine (ci : ConstantInfo) : String :=
  let lps := " ".intercalate (ci.levelParams.map encName)
  let base := kindString ci ++ " [" ++ lps ++ "] " ++ exprFingerprint ci.type
  match ci with
  | .defnInfo v =>
    base ++ " = " ++ exprFingerprint v.value
  | .inductInfo v =>
    base ++ " params " ++ toString v.numParams ++ " indices " ++ toString v.numIndices
      ++ " ctors " ++ " ".intercalate (v.ctors.map encName)
      ++ " all " ++ " ".intercalate (v.all.map encName)
  | .ctorInfo v =>
    base ++ " of " ++ encName v.induct ++ " #" ++ toString v.cidx ++ " params "
      ++ toString v.numParams ++ " fields " ++ toString v.numFields
  | _ => base

/-- Fingerprints of constants, computed once per run. -/
abbrev FpCache := Std.HashMap Name String

/-- The 64-bit fingerprint (decimal string) of a constant, extending the cache. -/
def constantFingerprint (cache : FpCache) (n : Name) (ci : ConstantInfo) : String × FpCache :=
  match cache[n]? with
  | some s => (s, cache)
  | none =>
    let s := toString (Hashable.hash (constantLine ci))
    (s, cache.insert n s)

/-- Every constant in the meaning closure of `root` (itself included), in discovery order. -/
def meaningClosure (env : Environment) (root : Name) : Array Name := Id.run do
  let mut seen : Std.HashSet Name := ({} : Std.HashSet Name).insert root
  let mut order : Array Name := #[]
  let mut todo : Array Name := #[root]
  while !todo.isEmpty do
    let n := todo.back!
    todo := todo.pop
    match env.find? n with
    | none => pure ()
    | some ci =>
      order := order.push n
      for d in meaningDeps ci do
        if !seen.contains d then
          seen := seen.insert d
          todo := todo.push d
  return order

/-- For a statement: the fingerprint of its whole meaning closure (every `name fingerprint` line,
sorted, hashed) and the fingerprints of the closure's workspace constants, extending the cache. -/
def statementFingerprints (env : Environment) (prefixes : Array Name) (cache : FpCache)
    (root : Name) : String × Array (String × String) × FpCache := Id.run do
  let mut fps := cache
  let mut lines : Array String := #[]
  let mut wsFps : Array (String × String) := #[]
  for n in meaningClosure env root do
    match env.find? n with
    | none => pure ()
    | some ci =>
      let (fp, fps') := constantFingerprint fps n ci
      fps := fps'
      lines := lines.push (encName n ++ " " ++ fp)
      if inWorkspace env prefixes n then
        wsFps := wsFps.push (n.toString, fp)
  let sorted := lines.qsort (fun a b => decide (a < b))
  let closure := toString (Hashable.hash ("\n".intercalate sorted.toList))
  return (closure, wsFps.qsort (fun a b => decide (a.1 < b.1)), fps)

/-! ## What a proof uses

The workspace constants a proof reaches through types and values (`constDeps`, the same edges as
the axiom walk), transitively through workspace constants, stopping at (reporting, not entering)
the other requested declarations: the catalog's statements and proofs. Non-workspace constants are
not entered either: imported libraries cannot refer back to the workspace. -/

def workspaceUses (env : Environment) (prefixes : Array Name) (stops : Std.HashSet Name)
    (root : Name) : Array String := Id.run do
  let mut seen : Std.HashSet Name := ({} : Std.HashSet Name).insert root
  let mut used : Array String := #[]
  let mut todo : Array Name := #[root]
  while !todo.isEmpty do
    let n := todo.back!
    todo := todo.pop
    match env.find? n with
    | none => pure ()
    | some ci =>
      for d in constDeps ci do
        if !seen.contains d && inWorkspace env prefixes d then
          seen := seen.insert d
          used := used.push d.toString
          if !stops.contains d then
            todo := todo.push d
  return used.qsort (fun a b => decide (a < b))

/-! ## Request -/

structure DeclReq where
  /-- The name exactly as requested (echoed back as `name`). -/
  raw : String
  name : Name
  statementRaw : Option String
  statement : Option Name

structure AuditRequest where
  modules : Array String
  moduleNames : Array Name
  decls : Array DeclReq
  /-- Module-name prefixes of the workspace (its libraries), for `uses` and `definitions`. -/
  workspace : Array Name

/-- A JSON string, or an error naming what it should have been. -/
def expectString (what : String) : Json → Except String String
  | .str s => pure s
  | _ => throw s!"{what} must be a string"

def parseDecl (d : Json) : Except String DeclReq := do
  match d with
  | .obj _ => pure ()
  | _ => throw "each entry of \"declarations\" must be an object"
  let raw ← expectString "the \"name\" of a declaration" (d.getObjValD "name")
  let statementRaw : Option String ← match d.getObjValD "statement" with
    | .null => pure none
    | .str s => pure (some s)
    | _ => throw s!"\"statement\" of {raw} must be a string or null"
  let name ← parseDotted raw
  let statement : Option Name ← match statementRaw with
    | none => pure none
    | some s => some <$> parseDotted s
  pure { raw, name, statementRaw, statement }

def parseRequest (j : Json) : Except String AuditRequest := do
  match j with
  | .obj _ => pure ()
  | _ => throw "the request must be a JSON object"
  let ms : Array Json ← match j.getObjValD "modules" with
    | .arr xs => pure xs
    | _ => throw "\"modules\" must be an array of module names"
  let mods ← ms.mapM (expectString "each module")
  let moduleNames ← mods.mapM parseDotted
  let ds : Array Json ← match j.getObjValD "declarations" with
    | .arr xs => pure xs
    | _ => throw "\"declarations\" must be an array"
  let decls ← ds.mapM parseDecl
  let ws : Array Json ← match j.getObjValD "workspace" with
    | .null => pure #[]
    | .arr xs => pure xs
    | _ => throw "\"workspace\" must be an array of module-name prefixes"
  let wsStrings ← ws.mapM (expectString "each workspace prefix")
  let workspace ← wsStrings.mapM parseDotted
  pure { modules := mods, moduleNames, decls, workspace }

/-! ## Report -/

def optStr : Option String → Json
  | some s => Json.str s
  | none => Json.null

/-- A requested name that is not in the environment. The list/boolean keys are `[]`/`false` rather
than `null` so the report validates against `AuditDecl` in `tools/missions/kernel.py`; `exists` is
the authority. -/
def missingJson (d : DeclReq) : Json :=
  Json.mkObj [
    ("name", Json.str d.raw),
    ("exists", Json.bool false),
    ("kind", Json.null),
    ("level_params", Json.arr #[]),
    ("type_hash", Json.null),
    ("type_fingerprint", Json.null),
    ("type_is_prop", Json.null),
    ("value_fingerprint", Json.null),
    ("axioms", Json.arr #[]),
    ("unsafe", Json.bool false),
    ("partial", Json.bool false),
    ("statement", optStr d.statementRaw),
    ("type_is_statement", Json.null),
    ("closure_fingerprint", Json.null),
    ("definitions", Json.null),
    ("uses", Json.null)]

/-- A definition whose type is exactly `Prop`: the shape of a statement. -/
def isPropDefinition : ConstantInfo → Bool
  | .defnInfo v => v.type.isProp
  | _ => false

/-- The fingerprint of the value of a definition whose type is exactly `Prop`, else `null`. -/
def valueFingerprint (ci : ConstantInfo) : Json :=
  match ci with
  | .defnInfo v => if v.type.isProp then Json.str (exprFingerprint v.value) else Json.null
  | _ => Json.null

/-- `null` without a statement; otherwise whether the type is exactly `Expr.const stmt []`: same
name, no universe levels, nothing around it (no `mdata`, no application, no binder). -/
def typeIsStatement (stmt? : Option Name) (ty : Expr) : Json :=
  match stmt?, ty with
  | none, _ => Json.null
  | some stmt, .const c ls => Json.bool (c == stmt && ls.isEmpty)
  | some _, _ => Json.bool false

/-- The statement-only and proof-only keys: `closure_fingerprint` and `definitions` for a
`Prop`-valued definition, `uses` for a declaration requested with a statement (a proof). -/
structure Extras where
  closure : Option String := none
  definitions : Option (Array (String × String)) := none
  uses : Option (Array String) := none

def presentJson (d : DeclReq) (ci : ConstantInfo) (axioms : NameSet) (x : Extras) : Json :=
  Json.mkObj [
    ("name", Json.str d.raw),
    ("exists", Json.bool true),
    ("kind", Json.str (kindString ci)),
    ("level_params", Json.arr (ci.levelParams.toArray.map fun n => Json.str n.toString)),
    ("type_hash", Json.str (toString ci.type.hash)),
    ("type_fingerprint", Json.str (exprFingerprint ci.type)),
    ("type_is_prop", Json.bool ci.type.isProp),
    ("value_fingerprint", valueFingerprint ci),
    ("axioms", Json.arr ((sortedNames axioms).map Json.str)),
    ("unsafe", Json.bool ci.isUnsafe),
    ("partial", Json.bool ci.isPartial),
    ("statement", optStr d.statementRaw),
    ("type_is_statement", typeIsStatement d.statement ci.type),
    ("closure_fingerprint", optStr x.closure),
    ("definitions", match x.definitions with
      | some defs => Json.mkObj (defs.toList.map fun (n, fp) => (n, Json.str fp))
      | none => Json.null),
    ("uses", match x.uses with
      | some us => Json.arr (us.map Json.str)
      | none => Json.null)]

/-! ## Command line -/

def usageText : String :=
"usage: audit --request REQ.json --out OUT.json

Imports every module listed in REQ.json once and writes the kernel evidence for every listed
declaration to OUT.json (format missions-audit/2, see docs/audit-format.md).
Run it where LEAN_PATH reaches the oleans, e.g.
  lake build audit && lake env .lake/build/bin/audit --request r.json --out o.json

Exit codes: 0 report written; 2 usage error, unreadable or invalid request, no Lean sysroot,
import failure (e.g. missing .olean: run `lake build` first) or unwritable OUT.json."

/-- One line: newlines become spaces (the caller reports the last line of stderr). -/
def oneLine (s : String) : String :=
  s.toList.foldl (fun acc c => acc.push (if c == '\n' || c == '\r' then ' ' else c)) ""

def die (msg : String) : IO UInt32 := do
  IO.eprintln s!"audit: {oneLine msg}"
  return 2

def tryIO {α : Type} (x : IO α) : IO (Except String α) := do
  try
    let a ← x
    return Except.ok a
  catch e =>
    return Except.error (toString e)

def parseArgs (args : List String) : Except String (String × String) := Id.run do
  let a := args.toArray
  let mut req : Option String := none
  let mut out : Option String := none
  let mut i := 0
  while i < a.size do
    let k := a[i]!
    if (k == "--request" || k == "--out") && i + 1 < a.size then
      if k == "--request" then
        req := some a[i+1]!
      else
        out := some a[i+1]!
      i := i + 2
    else
      return Except.error s!"unknown or incomplete argument '{k}'"
  match req, out with
  | some r, some o => return Except.ok (r, o)
  | _, _ => return Except.error "both --request REQ.json and --out OUT.json are required"

def runAudit (reqPath outPath : String) : IO UInt32 := do
  let text ← match (← tryIO (IO.FS.readFile reqPath)) with
    | .ok t => pure t
    | .error e => return (← die s!"cannot read request {reqPath}: {e}")
  let json ← match Json.parse text with
    | .ok j => pure j
    | .error e => return (← die s!"request {reqPath} is not valid JSON: {e}")
  let req ← match parseRequest json with
    | .ok r => pure r
    | .error e => return (← die s!"invalid request {reqPath}: {e}")
  match (← tryIO (do initSearchPath (← findSysroot))) with
  | .ok () => pure ()
  | .error e =>
    return (← die s!"cannot find the Lean sysroot: {e} (run under `lake env` or `lake exe`)")
  -- The one import for the whole catalog.
  let imports : Array Import := req.moduleNames.map fun m => ({ module := m } : Import)
  let imported ← tryIO <|
    importModules imports {} (trustLevel := 1024) (leakEnv := true) (loadExts := false)
  let env ← match imported with
    | .ok env => pure env
    | .error e =>
      return (← die s!"import failed: {e} (missing or stale .olean? run `lake build` first)")
  let mut cache : AxCache := {}
  let mut fps : FpCache := {}
  let stops : Std.HashSet Name := req.decls.foldl (fun s d => s.insert d.name) {}
  let mut decls : Array Json := #[]
  for d in req.decls do
    match env.find? d.name with
    | none =>
      decls := decls.push (missingJson d)
    | some ci =>
      let c := cache
      cache := {}
      let (axs, c') := axiomsOf env c d.name
      cache := c'
      let mut extras : Extras := {}
      if isPropDefinition ci then
        let f := fps
        fps := {}
        let (closure, defs, f') := statementFingerprints env req.workspace f d.name
        fps := f'
        extras := { extras with closure := some closure, definitions := some defs }
      if d.statement.isSome then
        extras := { extras with uses := some (workspaceUses env req.workspace stops d.name) }
      decls := decls.push (presentJson d ci axs extras)
  let report := Json.mkObj [
    ("format", Json.str "missions-audit/2"),
    ("lean_version", Json.str Lean.versionString),
    ("lean_githash", Json.str Lean.githash),
    ("modules", Json.arr (req.modules.map Json.str)),
    ("declarations", Json.arr decls)]
  match (← tryIO (IO.FS.writeFile outPath (report.pretty ++ "\n"))) with
  | .ok () => return 0
  | .error e => die s!"cannot write {outPath}: {e}"

end Audit

def main (args : List String) : IO UInt32 := do
  if args.contains "--help" || args.contains "-h" then
    IO.println Audit.usageText
    return 0
  match Audit.parseArgs args with
  | .error e => Audit.die s!"usage error: {e} (see audit --help)"
  | .ok (req, out) => Audit.runAudit req out
