//! The spec as JSON (a spec file, a CSV's `# spec` line), read by the one reader (`read.rs`)
//! through serde_json's values: native only (the worker's module reads JavaScript objects).

use serde_json::Value as Json;

use super::read::{read, Source, Value};
use super::{ErrorKind, Spec, SpecError};

/// A JSON value, missing (`None`), or an object's key.
enum Node<'a> {
    Value(Option<&'a Json>),
    Key(&'a str),
}

impl Source for Node<'_> {
    fn value(&self) -> Value {
        match self {
            Node::Key(_) => Value::Text,
            Node::Value(None) => Value::Undefined,
            Node::Value(Some(json)) => match json {
                Json::Null => Value::Null,
                Json::Bool(on) => Value::Boolean(*on),
                Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
                Json::String(_) => Value::Text,
                Json::Array(_) => Value::Array,
                Json::Object(_) => Value::Object,
            },
        }
    }

    fn text(&self, max: usize) -> Option<String> {
        let text = match self {
            Node::Key(key) => key,
            Node::Value(Some(Json::String(text))) => text.as_str(),
            Node::Value(_) => return None,
        };
        (text.chars().count() <= max).then(|| text.to_string())
    }

    fn get(&self, key: &str) -> Self {
        match self {
            Node::Value(Some(Json::Object(map))) => Node::Value(map.get(key)),
            _ => Node::Value(None),
        }
    }

    fn keys(&self) -> Vec<Self> {
        match self {
            Node::Value(Some(Json::Object(map))) => {
                map.keys().map(|key| Node::Key(key.as_str())).collect()
            }
            _ => Vec::new(),
        }
    }

    fn length(&self) -> usize {
        match self {
            Node::Value(Some(Json::Array(items))) => items.len(),
            _ => 0,
        }
    }

    fn item(&self, index: usize) -> Self {
        match self {
            Node::Value(Some(Json::Array(items))) => Node::Value(items.get(index)),
            _ => Node::Value(None),
        }
    }
}

/// The spec in the JSON `text`, read and checked.
pub fn read_json(text: &str) -> Result<Spec, SpecError> {
    let json: Json = serde_json::from_str(text)
        .map_err(|e| SpecError::new("spec", ErrorKind::Type, &format!("not JSON: {e}")))?;
    read(&Node::Value(Some(&json)))
}
