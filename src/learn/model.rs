//! The model file: a [`Net`] in the safetensors format, tagged with the game and encoding it
//! was trained for.
//!
//! Tensors (f32, row-major): `l1.embedding` `[inputs, hidden]` (one row per one-hot input, as
//! an embedding bag), `l1.bias` `[hidden]`, `l2.weight` `[second, hidden]`, `l2.bias`
//! `[second]`, `out.weight` `[1, second]`, `out.bias` `[1]`. The safetensors metadata holds one
//! key, `playstyles`, whose value is the JSON of [`ModelInfo`] (one key, because the format
//! writes its metadata map in hash order, and several keys would make the bytes of a rebuilt
//! model differ): what the model is for, the command that trained it and the fingerprints of
//! the datasets it was trained on.

use std::collections::HashMap;
use std::path::Path;

use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use serde::{Deserialize, Serialize};

use super::encoding::Encoding;
use super::net::{Net, Shape};
use crate::error::{Error, Result};
use crate::files::{DATA_LIMIT, read_bytes, write_atomic};

/// The `format` of [`ModelInfo`].
pub const FORMAT: &str = "playstyles-value-net";

/// The version of the model layout.
pub const FORMAT_VERSION: u32 = 1;

/// The metadata key.
const KEY: &str = "playstyles";

/// What a model is for and how it was made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelInfo {
    /// [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// The game's registered name.
    pub game: String,
    /// The encoding of its inputs.
    pub encoding: Encoding,
    /// The command line that trained it.
    pub trained_by: String,
    /// The fingerprints of the datasets it was trained on, in order: the
    /// [`config_hash`](crate::experiments::tasks::config_hash) of each one's resolved config
    /// (absent from models written before they were kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<String>,
}

impl ModelInfo {
    /// The tags of a model file's bytes, whatever its game and encoding; the error says why
    /// they are not a model of this tool's format.
    pub fn parse(bytes: &[u8]) -> std::result::Result<ModelInfo, String> {
        let (_, meta) = SafeTensors::read_metadata(bytes)
            .map_err(|e| format!("not a safetensors model file ({e})"))?;
        let text =
            meta.metadata().as_ref().and_then(|m| m.get(KEY)).ok_or(
                "a safetensors file without playstyles metadata (not a model of this tool)",
            )?;
        let info: ModelInfo = serde_json::from_str(text)
            .map_err(|e| format!("malformed playstyles metadata: {e}"))?;
        if info.format != FORMAT || info.format_version != FORMAT_VERSION {
            return Err(format!(
                "a model of format {} v{}, this program reads {FORMAT} v{FORMAT_VERSION}",
                info.format, info.format_version
            ));
        }
        Ok(info)
    }
}

/// A trained network and what it is for.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The network.
    pub net: Net,
    /// Its tags.
    pub info: ModelInfo,
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

impl Model {
    /// The model's file bytes (the same bytes for the same model).
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = &self.net;
        let Shape {
            inputs,
            hidden,
            second,
        } = n.shape;
        let tensors: Vec<(&str, Vec<usize>, Vec<u8>)> = vec![
            ("l1.embedding", vec![inputs, hidden], f32_bytes(&n.w1)),
            ("l1.bias", vec![hidden], f32_bytes(&n.b1)),
            ("l2.weight", vec![second, hidden], f32_bytes(&n.w2)),
            ("l2.bias", vec![second], f32_bytes(&n.b2)),
            ("out.weight", vec![1, second], f32_bytes(&n.w3)),
            ("out.bias", vec![1], f32_bytes(&[n.b3])),
        ];
        let views: Vec<(&str, TensorView<'_>)> = tensors
            .iter()
            .map(|(name, shape, data)| {
                let view = TensorView::new(Dtype::F32, shape.clone(), data)
                    .expect("shapes match the data");
                (*name, view)
            })
            .collect();
        let info = serde_json::to_string(&self.info).expect("model info serialises");
        let meta = HashMap::from([(KEY.to_string(), info)]);
        safetensors::serialize(views, Some(meta)).expect("a model serialises")
    }

    /// Writes the model to `path` atomically.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `path` if it cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads the model at `path` for `game` with `encoding`.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] naming `path` if it cannot be read; [`Error::Data`] naming it for a file
    /// that is not a safetensors file, has no playstyles metadata (a model of another tool),
    /// another layout version, was trained for another game or encoding (or unit library),
    /// or whose tensors are missing or of the wrong type or shape.
    pub fn load(path: &Path, game: Option<&str>, encoding: &Encoding) -> Result<Model> {
        let bytes = read_bytes(path, DATA_LIMIT)?;
        Model::parse(&bytes, game, encoding).map_err(|reason| Error::Data {
            path: path.to_path_buf(),
            line: 0,
            reason,
        })
    }

    /// Parses a model file's bytes for `game` (any game if `None`: the encoding alone must
    /// fit) with `encoding`; the error says what is wrong.
    pub fn parse(
        bytes: &[u8],
        game: Option<&str>,
        encoding: &Encoding,
    ) -> std::result::Result<Model, String> {
        let info = ModelInfo::parse(bytes)?;
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| format!("not a safetensors model file ({e})"))?;
        if let Some(game) = game.filter(|&g| g != info.game) {
            return Err(format!("a model for {}, not {game}", info.game));
        }
        if let Some(why) = encoding.mismatch(&info.encoding) {
            return Err(format!("a model {why}"));
        }
        let tensor = |name: &str, shape: &[usize]| -> std::result::Result<Vec<f32>, String> {
            let t = tensors
                .tensor(name)
                .map_err(|_| format!("no tensor `{name}`"))?;
            if t.dtype() != Dtype::F32 || t.shape() != shape {
                return Err(format!(
                    "tensor `{name}` is {:?} {:?}, expected F32 {shape:?}",
                    t.dtype(),
                    t.shape()
                ));
            }
            let v: Vec<f32> = t
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
                .collect();
            if v.iter().any(|x| !x.is_finite()) {
                return Err(format!("tensor `{name}` holds a value that is not finite"));
            }
            Ok(v)
        };
        let b1 = tensors
            .tensor("l1.bias")
            .map_err(|_| "no tensor `l1.bias`".to_string())?;
        let w2 = tensors
            .tensor("l2.weight")
            .map_err(|_| "no tensor `l2.weight`".to_string())?;
        let (hidden, second) = match (b1.shape(), w2.shape()) {
            ([h], [s, _]) if *h > 0 && *s > 0 => (*h, *s),
            _ => return Err("tensors `l1.bias` / `l2.weight` of the wrong rank".into()),
        };
        let inputs = encoding.inputs();
        let net = Net {
            shape: Shape {
                inputs,
                hidden,
                second,
            },
            w1: tensor("l1.embedding", &[inputs, hidden])?,
            b1: tensor("l1.bias", &[hidden])?,
            w2: tensor("l2.weight", &[second, hidden])?,
            b2: tensor("l2.bias", &[second])?,
            w3: tensor("out.weight", &[1, second])?,
            b3: tensor("out.bias", &[1])?[0],
        };
        Ok(Model { net, info })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoding() -> Encoding {
        Encoding {
            name: "e".into(),
            version: 1,
            fingerprint: "lib 1".into(),
            slots: 2,
        }
    }

    fn model() -> Model {
        let e = encoding();
        let shape = Shape {
            inputs: e.inputs(),
            hidden: 8,
            second: 4,
        };
        Model {
            net: Net::new(shape, 4, 3),
            info: ModelInfo {
                format: FORMAT.into(),
                format_version: FORMAT_VERSION,
                game: "g".into(),
                encoding: e,
                trained_by: "train d --out m".into(),
                datasets: vec!["0123456789abcdef".into()],
            },
        }
    }

    #[test]
    fn a_model_reads_back_and_writes_the_same_bytes() {
        let m = model();
        let bytes = m.to_bytes();
        assert_eq!(bytes, m.to_bytes());
        let back = Model::parse(&bytes, Some("g"), &encoding()).unwrap();
        assert_eq!(back, m);
    }

    #[test]
    fn foreign_and_mismatched_models_are_refused() {
        let bytes = model().to_bytes();
        let err = |b: &[u8], game: &str, e: &Encoding| Model::parse(b, Some(game), e).unwrap_err();
        assert!(err(&bytes, "h", &encoding()).contains("a model for g, not h"));
        let mut other = encoding();
        other.fingerprint = "lib 2".into();
        assert!(err(&bytes, "g", &other).contains("lib 2"));
        assert!(err(&bytes[..bytes.len() - 5], "g", &encoding()).contains("not a safetensors"));
        assert!(err(b"hello", "g", &encoding()).contains("not a safetensors"));
        let bare = safetensors::serialize(
            [(
                "x",
                TensorView::new(Dtype::F32, vec![1], &[0, 0, 0, 0]).unwrap(),
            )],
            None,
        )
        .unwrap();
        assert!(err(&bare, "g", &encoding()).contains("without playstyles metadata"));
    }

    #[test]
    fn a_shared_model_is_read_once_until_its_file_changes() {
        use crate::learn::value::LearnedValue;
        let dir = std::env::temp_dir().join(format!("playstyles-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.safetensors");
        std::fs::write(&path, model().to_bytes()).unwrap();
        let p = path.to_str().unwrap();
        let a = LearnedValue::shared(p, Some("g"), &encoding()).unwrap();
        let b = LearnedValue::shared(p, Some("g"), &encoding()).unwrap();
        assert!(std::sync::Arc::ptr_eq(&a, &b), "read once");
        let mut other = model();
        other.info.trained_by = "train d --out m --epochs 9".into();
        std::fs::write(&path, other.to_bytes()).unwrap();
        let c = LearnedValue::shared(p, Some("g"), &encoding()).unwrap();
        assert_eq!(c.model, other, "read again once the file changed");
        assert!(LearnedValue::shared(p, Some("h"), &encoding()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
