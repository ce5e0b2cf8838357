//! Agent spec strings: `name(key=value,...)`.
//!
//! A spec names an agent and sets its fields, with the same names as in TOML configs:
//!
//! ```text
//! random
//! mcts(budget=2000)
//! pmcts(bias=true,pruning=true,budget=2000,weights=[spawn.defensive=1,research.naval=0.25])
//! ```
//!
//! A value is a number (`2000`, `-1.5`, `1e3`), `true`/`false`, a bare word (`greedy`), a file
//! path (`bots/mine.toml`, `/tmp/bots.toml`: letters, digits, `_`, `.`, `-` and `/`, with a
//! `/` or a `.`) or a bracketed list of `key=number` pairs. Names, keys and words start with a
//! letter or `_` and continue with letters, digits, `_`, `.` or `-`. Whitespace between tokens
//! is ignored.
//! [`AgentSpec`]'s `Display` writes the canonical form, which parses back to an equal spec.
//!
//! Builders read fields with the typed `take_*` helpers, then call [`AgentSpec::finish`], which
//! rejects any field they did not ask for.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// The config field that syntax errors in agent specs are reported against.
const AGENTS_FIELD: &str = "agents";

/// The fields whose value is the path of a file the agent reads, in any game's agents (a bot
/// file: `config=bots/mine.toml`; a learned model: `model=models/prismata.safetensors`; a
/// roster: `roster(file=run/roster.toml,name=…)`). A relative path is relative to the working folder, or to
/// the base folder the spec is built at ([`AgentSpec::map_files`],
/// [`crate::agents::build_agent_at`]); a run keeps a copy of each file in its directory.
pub const FILE_FIELDS: [&str; 3] = ["config", "model", "file"];

/// The value of one field of an agent spec.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer literal (`2000`, `-3`).
    Int(i128),
    /// A finite number with a fraction or an exponent (`0.25`, `1e3`).
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
    /// A bare word (`greedy`) or a file path (`bots/mine.toml`).
    Word(String),
    /// A bracketed list of `key=number` pairs, in the order given.
    Weights(Vec<(String, f64)>),
}

impl fmt::Display for Value {
    /// The value as a spec writes it; the alternate form (`{:#}`) writes each weight of a
    /// list with a point or an exponent (`{:?}`), as a genome's weights are written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            // `Debug` always writes a `.` or an exponent, so the text parses back as a float.
            Value::Float(x) => write!(f, "{x:?}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Word(w) => f.write_str(w),
            Value::Weights(ws) => {
                f.write_str("[")?;
                for (i, (k, w)) in ws.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    if f.alternate() {
                        write!(f, "{k}={w:?}")?;
                    } else {
                        write!(f, "{k}={w}")?;
                    }
                }
                f.write_str("]")
            }
        }
    }
}

/// A parsed agent spec: a name and its fields in the order given.
///
/// Equality compares the name and the remaining fields.
#[derive(Clone)]
pub struct AgentSpec {
    name: String,
    fields: Vec<(String, Value)>,
    /// Keys asked for by the `take_*` helpers, to list in [`AgentSpec::finish`]'s error.
    asked: Vec<String>,
}

impl PartialEq for AgentSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.fields == other.fields
    }
}

impl fmt::Debug for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentSpec")
            .field("name", &self.name)
            .field("fields", &self.fields)
            .finish()
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical form: `name` alone if there are no fields, else `name(k=v,...)`. The
    /// alternate form (`{:#}`) writes weights with a point (`[a=1.0]`, not `[a=1]`): the
    /// form a genome's player spec has in task files and replay lines ([`Value`]'s `{:#}`).
    /// Both parse back to an equal spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if self.fields.is_empty() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, (k, v)) in self.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if f.alternate() {
                write!(f, "{k}={v:#}")?;
            } else {
                write!(f, "{k}={v}")?;
            }
        }
        f.write_str(")")
    }
}

impl FromStr for AgentSpec {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        AgentSpec::parse(s)
    }
}

impl AgentSpec {
    /// The same spec from a TOML table: `name` plus the fields, with weights as a table of
    /// numbers (`{ name = "pmcts", bias = true, weights = { "spawn.defensive" = 1.0 } }`).
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the field that is missing or of the wrong type.
    pub fn from_toml(value: &toml::Value, field: &str) -> Result<Self> {
        let table = value
            .as_table()
            .ok_or_else(|| Error::config(field, "expected a table with a `name`"))?;
        let name = table
            .get("name")
            .and_then(|v| v.as_str())
            .ok_or_else(|| Error::config(format!("{field}.name"), "missing agent name"))?;
        let mut fields = Vec::new();
        for (k, v) in table.iter().filter(|(k, _)| k.as_str() != "name") {
            let path = format!("{field}.{k}");
            let v = match v {
                toml::Value::Integer(i) => Value::Int(*i as i128),
                toml::Value::Float(x) => Value::Float(*x),
                toml::Value::Boolean(b) => Value::Bool(*b),
                toml::Value::String(w) => Value::Word(w.clone()),
                toml::Value::Table(t) => {
                    let mut ws = Vec::new();
                    for (wk, wv) in t {
                        let x = wv
                            .as_float()
                            .or_else(|| wv.as_integer().map(|i| i as f64))
                            .ok_or_else(|| {
                                Error::config(format!("{path}.{wk}"), "expected a number")
                            })?;
                        ws.push((wk.clone(), x));
                    }
                    Value::Weights(ws)
                }
                _ => return Err(Error::config(path, "unsupported value type")),
            };
            fields.push((k.clone(), v));
        }
        let text = AgentSpec {
            name: name.to_string(),
            fields,
            asked: Vec::new(),
        }
        .to_string();
        // Round-trip through the text form so both spellings obey the same rules.
        AgentSpec::parse(&text)
    }

    /// Parses a spec string such as `mcts(budget=2000)`.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] with field `agents` if the text is malformed, or with the field's key
    /// if a field is given twice, holds a list with a repeated key, or has an invalid value.
    pub fn parse(s: &str) -> Result<Self> {
        Parser::new(s).spec()
    }

    /// The agent's name, e.g. `mcts`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fields not yet taken, in the order given.
    pub fn fields(&self) -> &[(String, Value)] {
        &self.fields
    }

    /// The file paths the spec names in its [`FILE_FIELDS`], in the order given.
    pub fn files(&self) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(k, _)| FILE_FIELDS.contains(&k.as_str()))
            .filter_map(|(_, v)| match v {
                Value::Word(w) => Some(w.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Replaces each file path the spec names in its [`FILE_FIELDS`] by `f` of it.
    pub fn map_files(&mut self, mut f: impl FnMut(&str) -> String) {
        for (k, v) in &mut self.fields {
            if let Value::Word(w) = v
                && FILE_FIELDS.contains(&k.as_str())
            {
                *w = f(w);
            }
        }
    }

    /// Sets field `key` to `value`: in its place if the spec has it, else appended (a
    /// strength dial's `budget=500` on an elite's spec).
    pub fn set(&mut self, key: &str, value: Value) {
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value,
            None => self.fields.push((key.to_string(), value)),
        }
    }

    /// Removes and returns the value of `key`, if given.
    pub fn take(&mut self, key: &str) -> Option<Value> {
        self.asked.push(key.to_string());
        let i = self.fields.iter().position(|(k, _)| k == key)?;
        Some(self.fields.remove(i).1)
    }

    /// Takes a non-negative integer field, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not an integer in `0..=u64::MAX`.
    pub fn take_u64(&mut self, key: &str, default: u64) -> Result<u64> {
        match self.take(key) {
            None => Ok(default),
            Some(Value::Int(i)) if (0..=i128::from(u64::MAX)).contains(&i) => Ok(i as u64),
            Some(v) => Err(Error::config(
                key,
                format!("expected a non-negative integer, got `{v}`"),
            )),
        }
    }

    /// Takes a non-negative integer field of at most `max` (a maximum of [`crate::limits`]), or
    /// `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not an integer in `0..=max`.
    pub fn take_at_most(&mut self, key: &str, default: u64, max: u64) -> Result<u64> {
        crate::limits::at_most(self.take_u64(key, default)?, max, key)
    }

    /// Takes a non-negative integer field that fits a `u32`, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not such an integer.
    pub fn take_u32(&mut self, key: &str, default: u32) -> Result<u32> {
        let v = self.take_u64(key, u64::from(default))?;
        u32::try_from(v).map_err(|_| {
            Error::config(
                key,
                format!("expected an integer of at most {}, got {v}", u32::MAX),
            )
        })
    }

    /// Takes a number field, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not a number.
    pub fn take_f64(&mut self, key: &str, default: f64) -> Result<f64> {
        match self.take(key) {
            None => Ok(default),
            Some(Value::Int(i)) => Ok(i as f64),
            Some(Value::Float(x)) => Ok(x),
            Some(v) => Err(Error::config(key, format!("expected a number, got `{v}`"))),
        }
    }

    /// Takes a finite number field greater than 0, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not a positive number.
    pub fn take_positive(&mut self, key: &str, default: f64) -> Result<f64> {
        let x = self.take_f64(key, default)?;
        if !(x.is_finite() && x > 0.0) {
            return Err(Error::config(
                key,
                format!("must be a positive number, got {x}"),
            ));
        }
        Ok(x)
    }

    /// Takes a finite number field in `[0, max]` (`max` may be infinite: any finite number
    /// ≥ 0), or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` for any other value.
    pub fn take_in(&mut self, key: &str, default: f64, max: f64) -> Result<f64> {
        let x = self.take_f64(key, default)?;
        if !(x.is_finite() && (0.0..=max).contains(&x)) {
            let range = if max.is_finite() {
                format!("a number from 0 to {max}")
            } else {
                "a finite number ≥ 0".to_string()
            };
            return Err(Error::config(key, format!("must be {range}, got {x}")));
        }
        Ok(x)
    }

    /// Takes a `true`/`false` field, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not `true` or `false`.
    pub fn take_bool(&mut self, key: &str, default: bool) -> Result<bool> {
        match self.take(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(b),
            Some(v) => Err(Error::config(
                key,
                format!("expected `true` or `false`, got `{v}`"),
            )),
        }
    }

    /// Takes a bare-word field, or `default` if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not a bare word.
    pub fn take_word(&mut self, key: &str, default: &str) -> Result<String> {
        match self.take(key) {
            None => Ok(default.to_string()),
            Some(Value::Word(w)) => Ok(w),
            Some(v) => Err(Error::config(key, format!("expected a word, got `{v}`"))),
        }
    }

    /// Takes a bare-word field naming one of `choices` (word, value), or `default` if it is
    /// absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not a bare word or not one of the words
    /// (the message lists them: "`x` is not `a`, `b` or `c`").
    pub fn take_choice<T: Copy>(
        &mut self,
        key: &str,
        default: T,
        choices: &[(&str, T)],
    ) -> Result<T> {
        let Some(value) = self.take(key) else {
            return Ok(default);
        };
        let Value::Word(w) = value else {
            return Err(Error::config(
                key,
                format!("expected a word, got `{value}`"),
            ));
        };
        if let Some(&(_, v)) = choices.iter().find(|(name, _)| *name == w) {
            return Ok(v);
        }
        let names: Vec<String> = choices
            .iter()
            .map(|(name, _)| format!("`{name}`"))
            .collect();
        let listed = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        };
        Err(Error::config(key, format!("`{w}` is not {listed}")))
    }

    /// Takes a `[key=number,...]` field (in the order given), or an empty list if it is absent.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `key` if the value is not a bracketed list.
    pub fn take_weights(&mut self, key: &str) -> Result<Vec<(String, f64)>> {
        match self.take(key) {
            None => Ok(Vec::new()),
            Some(Value::Weights(ws)) => Ok(ws),
            Some(v) => Err(Error::config(
                key,
                format!("expected a list such as `[a=1,b=0.5]`, got `{v}`"),
            )),
        }
    }

    /// The spec with a `weights=[name=value,...]` field appended: `names[i]` weighs
    /// `values[i]` (a genome's weights). The spec is the one its text would parse to.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming `weights` if the spec has that field already, or a name is not
    /// an identifier or comes twice, or a value is not finite: what parsing the text would
    /// refuse.
    pub fn with_script_weights(mut self, names: &[String], values: &[f64]) -> Result<Self> {
        if self.fields.iter().any(|(k, _)| k == "weights") {
            return Err(Error::config("weights", "given twice"));
        }
        let mut pairs: Vec<(String, f64)> = Vec::with_capacity(names.len());
        for (name, &w) in names.iter().zip(values) {
            if !is_identifier(name) {
                return Err(Error::config(
                    "weights",
                    format!("`{name}` is not a weight name"),
                ));
            }
            if !w.is_finite() {
                return Err(Error::config(
                    "weights",
                    format!("`{w:?}` is not a finite number"),
                ));
            }
            if pairs.iter().any(|(k, _)| k == name) {
                return Err(Error::config(
                    "weights",
                    format!("weight `{name}` given twice"),
                ));
            }
            pairs.push((name.clone(), w));
        }
        self.fields
            .push(("weights".to_string(), Value::Weights(pairs)));
        Ok(self)
    }

    /// Checks that every field was taken.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the first field left over, listing the fields the agent accepts.
    pub fn finish(self) -> Result<()> {
        let Some((key, _)) = self.fields.first() else {
            return Ok(());
        };
        let accepts = if self.asked.is_empty() {
            "it takes no fields".to_string()
        } else {
            format!("it accepts: {}", self.asked.join(", "))
        };
        Err(Error::config(
            key.as_str(),
            format!("unknown field of agent `{}` ({accepts})", self.name),
        ))
    }
}

/// Splits a comma-separated list of agent specs on top-level commas only, trimming each, so
/// that `random,mcts(budget=5,weights=[a=1,b=2])` gives `random` and
/// `mcts(budget=5,weights=[a=1,b=2])`. The parts are not parsed.
///
/// # Errors
///
/// [`Error::Config`] with field `agents` if brackets do not balance or a part is empty.
pub fn split_agent_list(s: &str) -> Result<Vec<String>> {
    let mut parts = Vec::new();
    let mut open: Vec<char> = Vec::new();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => open.push(c),
            ')' | ']' => {
                let want = if c == ')' { '(' } else { '[' };
                if open.pop() != Some(want) {
                    return Err(list_error(
                        s,
                        format!("unmatched `{c}` at column {}", i + 1),
                    ));
                }
            }
            ',' if open.is_empty() => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if let Some(c) = open.last() {
        return Err(list_error(s, format!("`{c}` is never closed")));
    }
    parts.push(s[start..].trim());
    if let Some(i) = parts.iter().position(|p| p.is_empty()) {
        return Err(list_error(
            s,
            format!("agent {} of the list is empty", i + 1),
        ));
    }
    Ok(parts.into_iter().map(str::to_string).collect())
}

/// Splits a comma-separated list with [`split_agent_list`] and parses each part.
///
/// # Errors
///
/// As [`split_agent_list`] and [`AgentSpec::parse`].
pub fn parse_agent_list(s: &str) -> Result<Vec<AgentSpec>> {
    split_agent_list(s)?
        .iter()
        .map(|p| AgentSpec::parse(p))
        .collect()
}

fn list_error(s: &str, reason: String) -> Error {
    Error::config(AGENTS_FIELD, format!("in `{s}`: {reason}"))
}

/// True for characters that end an atom (name, key, word or number): all but letters, digits,
/// `_`, `.`, `-` and `+`.
fn is_delimiter(c: char) -> bool {
    !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '+' | '/'))
}

/// True for a file path written as a word (`bots.toml`, `../x/bots.toml`, `/tmp/bots.toml`):
/// letters, digits, `_`, `.`, `-` and `/`, with at least one `/` or `.` and a letter.
fn is_path(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
        && s.contains(['/', '.'])
        && s.chars().any(|c| c.is_ascii_alphabetic())
}

/// True for a name, key or word: a letter or `_`, then letters, digits, `_`, `.` or `-`.
fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// A recursive-descent parser over one spec string.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { text, pos: 0 }
    }

    /// A syntax error at the current position.
    fn error(&self, what: &str) -> Error {
        let found = match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end".to_string(),
        };
        Error::config(
            AGENTS_FIELD,
            format!(
                "in agent spec `{}`: expected {what} at column {}, found {found}",
                self.text,
                self.pos + 1
            ),
        )
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// Consumes `c` (after whitespace) if it comes next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("`{c}`")))
        }
    }

    /// The next run of non-delimiter characters (possibly empty), after whitespace.
    fn atom(&mut self) -> &'a str {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let len = rest.find(is_delimiter).unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    /// A name or key: an atom that is an identifier.
    fn identifier(&mut self, what: &str) -> Result<String> {
        let start = self.pos;
        let atom = self.atom();
        if is_identifier(atom) {
            Ok(atom.to_string())
        } else {
            self.pos = start;
            self.skip_ws();
            Err(self.error(what))
        }
    }

    fn spec(&mut self) -> Result<AgentSpec> {
        let name = self.identifier("an agent name")?;
        let mut fields: Vec<(String, Value)> = Vec::new();
        if self.eat('(') && !self.eat(')') {
            loop {
                let key = self.identifier("a field name")?;
                self.expect('=')?;
                let value = self.value(&key)?;
                if fields.iter().any(|(k, _)| *k == key) {
                    return Err(Error::config(key, "given twice"));
                }
                fields.push((key, value));
                if self.eat(')') {
                    break;
                }
                if !self.eat(',') {
                    return Err(self.error("`,` or `)`"));
                }
            }
        }
        self.skip_ws();
        if self.pos < self.text.len() {
            return Err(self.error("the end of the spec"));
        }
        Ok(AgentSpec {
            name,
            fields,
            asked: Vec::new(),
        })
    }

    /// The value of field `key`.
    fn value(&mut self, key: &str) -> Result<Value> {
        if self.eat('[') {
            return self.weights(key).map(Value::Weights);
        }
        let atom = self.atom();
        match atom {
            "" => Err(self.error(&format!("a value for `{key}`"))),
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            w if is_identifier(w) => Ok(Value::Word(w.to_string())),
            n => number(key, n).or_else(|e| {
                if is_path(n) {
                    Ok(Value::Word(n.to_string()))
                } else {
                    Err(e)
                }
            }),
        }
    }

    /// The pairs of a bracketed list, after its `[`.
    fn weights(&mut self, key: &str) -> Result<Vec<(String, f64)>> {
        let mut pairs: Vec<(String, f64)> = Vec::new();
        if self.eat(']') {
            return Ok(pairs);
        }
        loop {
            let name = self.identifier("a weight name")?;
            self.expect('=')?;
            let atom = self.atom();
            if atom.is_empty() {
                return Err(self.error(&format!("a number for `{name}`")));
            }
            let w = float(key, atom)?;
            if pairs.iter().any(|(k, _)| *k == name) {
                return Err(Error::config(key, format!("weight `{name}` given twice")));
            }
            pairs.push((name, w));
            if self.eat(']') {
                return Ok(pairs);
            }
            if !self.eat(',') {
                return Err(self.error("`,` or `]`"));
            }
        }
    }
}

/// Parses a numeric atom for field `key`: an integer if it has no fraction or exponent.
fn number(key: &str, text: &str) -> Result<Value> {
    if let Ok(i) = text.parse::<i128>() {
        return Ok(Value::Int(i));
    }
    float(key, text).map(Value::Float).map_err(|_| {
        Error::config(
            key,
            format!("`{text}` is not a number, `true`/`false`, a word or a `[...]` list"),
        )
    })
}

/// Parses a finite number for field `key`.
fn float(key: &str, text: &str) -> Result<f64> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(Error::config(
            key,
            format!("`{text}` is not a finite number"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_keep_a_point_so_they_parse_back_as_floats() {
        let s = AgentSpec::parse("a(x=2.0,y=1e3,z=-0.5)").unwrap();
        assert_eq!(s.to_string(), "a(x=2.0,y=1000.0,z=-0.5)");
        assert_eq!(AgentSpec::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn whitespace_between_tokens_is_ignored() {
        let s = AgentSpec::parse(" mcts ( budget = 5 , w = [ a = 1 , b = 2 ] ) ").unwrap();
        assert_eq!(s.to_string(), "mcts(budget=5,w=[a=1,b=2])");
    }

    #[test]
    fn file_fields_are_listed_and_mapped_and_other_words_are_not() {
        let mut s = AgentSpec::parse("X(config=bots/x.toml,mode=greedy,c=2)").unwrap();
        assert_eq!(s.files(), ["bots/x.toml"]);
        s.map_files(|p| format!("run/{p}"));
        assert_eq!(s.to_string(), "X(config=run/bots/x.toml,mode=greedy,c=2)");
        assert!(
            AgentSpec::parse("mcts(budget=5)")
                .unwrap()
                .files()
                .is_empty()
        );
    }

    #[test]
    fn script_weights_are_appended_and_written_with_a_point() {
        let names = ["spawn.defensive".to_string(), "research.naval".to_string()];
        let p = AgentSpec::parse("pmcts(bias=true,budget=50)").unwrap();
        let w = p.with_script_weights(&names, &[1.0, 0.25]).unwrap();
        assert_eq!(
            format!("{w:#}"),
            "pmcts(bias=true,budget=50,weights=[spawn.defensive=1.0,research.naval=0.25])"
        );
        assert_eq!(
            w.to_string(),
            "pmcts(bias=true,budget=50,weights=[spawn.defensive=1,research.naval=0.25])"
        );
        let bare = AgentSpec::parse("pmcts").unwrap();
        let w = bare.with_script_weights(&names[..1], &[0.5]).unwrap();
        assert_eq!(format!("{w:#}"), "pmcts(weights=[spawn.defensive=0.5])");
        assert!(w.with_script_weights(&names, &[0.0, 0.0]).is_err());
        let bad = |names: &[&str], values: &[f64]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            AgentSpec::parse("pmcts")
                .unwrap()
                .with_script_weights(&names, values)
                .unwrap_err()
                .to_string()
        };
        assert!(bad(&["a", "a"], &[1.0, 2.0]).contains("`a` given twice"));
        assert!(bad(&["1a"], &[1.0]).contains("`1a`"));
        assert!(bad(&["a"], &[f64::NAN]).contains("finite"));
    }

    #[test]
    fn weights_set_typed_equal_their_text_parsed_bit_for_bit() {
        let names: Vec<String> = (0..9).map(|i| format!("s{i}")).collect();
        let values = [
            0.1 + 0.2,
            1.0 / 3.0,
            5e-324,
            1e-7,
            123_456_789.123_456_79,
            1e300,
            0.0,
            -0.0,
            0.75,
        ];
        let typed = AgentSpec::parse("pmcts(budget=5)")
            .unwrap()
            .with_script_weights(&names, &values)
            .unwrap();
        for text in [format!("{typed:#}"), typed.to_string()] {
            let mut parsed = AgentSpec::parse(&text).unwrap();
            let back: Vec<u64> = parsed
                .take_weights("weights")
                .unwrap()
                .iter()
                .map(|(_, w)| w.to_bits())
                .collect();
            let bits: Vec<u64> = values.iter().map(|w| w.to_bits()).collect();
            assert_eq!(back, bits, "{text}");
        }
        assert_eq!(AgentSpec::parse(&format!("{typed:#}")).unwrap(), typed);
    }

    #[test]
    fn finish_lists_the_fields_asked_for() {
        let mut s = AgentSpec::parse("mcts(budget=5,bogus=1)").unwrap();
        assert_eq!(s.take_u64("budget", 1).unwrap(), 5);
        let e = s.finish().unwrap_err().to_string();
        assert!(e.contains("`bogus`") && e.contains("budget"), "{e}");
    }
}
