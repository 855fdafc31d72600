//! Argument paths fitted to the arguments a call sent.

use serde_json::Value;

use crate::model::envelope::ErrorEnvelope;

/// Fits each argument problem's path in `envelope` to `arguments`, the
/// arguments the failed call sent: a token that names nothing in them,
/// followed by one that names something at the same place, is dropped.
/// pydantic writes such tokens for the member of a union that failed (a
/// tagged union's tag, `/payment/bank/iban` for `{"payment": {"iban":
/// ...}}`; a model's name); the path then names the argument the model
/// sent. A path that resolves, and the unresolved end of one (a missing
/// field, a key the model misspelled), are kept as they are.
///
/// [`call_tool`](super::call_tool) does this for every failure it reads; a
/// host with its own loop calls it after a reader.
pub fn fit_paths(envelope: &mut ErrorEnvelope, arguments: &Value) {
    for problem in &mut envelope.fields_mut().argument_errors {
        if let Some(fitted) = fit(&problem.path, arguments) {
            problem.path = fitted;
        }
    }
}

/// `path` fitted to `arguments`, when a token was dropped.
fn fit(path: &str, arguments: &Value) -> Option<String> {
    let tokens: Vec<String> = path
        .strip_prefix('/')?
        .split('/')
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut kept: Vec<&str> = Vec::with_capacity(tokens.len());
    let mut here = Some(arguments);
    let mut dropped = false;
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index].as_str();
        let child = here.and_then(|value| child(value, token));
        if child.is_some() {
            kept.push(token);
            here = child;
        } else if let Some(next) = tokens.get(index + 1)
            && here.and_then(|value| self::child(value, next)).is_some()
        {
            dropped = true;
        } else {
            kept.extend(tokens[index..].iter().map(String::as_str));
            break;
        }
        index += 1;
    }
    dropped.then(|| crate::args::pointer(kept))
}

/// The member `token` of an object, or the item of an array.
fn child<'a>(value: &'a Value, token: &str) -> Option<&'a Value> {
    match value {
        Value::Object(map) => map.get(token),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|at| items.get(at)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::fit;

    #[test]
    fn tags_and_member_names_are_dropped() {
        let arguments = json!({"payment": {"iban": "x"}, "ids": [1, "a"], "id": "x"});
        assert_eq!(
            fit("/payment/bank/iban", &arguments).as_deref(),
            Some("/payment/iban")
        );
        assert_eq!(fit("/ids/IntList/1", &arguments).as_deref(), Some("/ids/1"));
        // What resolves, or is missing at the end, stays.
        assert_eq!(fit("/payment/iban", &arguments), None);
        assert_eq!(fit("/payment/bic", &arguments), None);
        assert_eq!(fit("/id/Thing", &arguments), None);
        assert_eq!(fit("", &arguments), None);
    }
}
