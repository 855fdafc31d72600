//! The prose form of an envelope, behind `ErrorEnvelope`'s `Display`.

use std::fmt;

use crate::envelope::ErrorEnvelope;

pub(crate) fn write_text(env: &ErrorEnvelope, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(env.error_class.as_str())?;
    if let Some(code) = &env.code {
        write!(f, " ({code})")?;
    }
    write!(f, ": {}", env.message)?;
    if !env.fuzzy_matches.is_empty() {
        f.write_str("\ndid you mean: ")?;
        for (i, name) in env.fuzzy_matches.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
    }
    if let Some(tool) = &env.suggested_tool {
        write!(f, "\nsuggested tool: {tool}")?;
    }
    for step in &env.next_steps {
        write!(f, "\nnext step: {step}")?;
    }
    if let Some(ms) = env.retry_after_ms {
        write!(f, "\nretry after: {ms} ms")?;
    }
    if let Some(code) = env.ora_code {
        write!(f, "\nora code: {code}")?;
    }
    if let Some(url) = &env.help_url {
        write!(f, "\nhelp: {url}")?;
    }
    for (key, value) in &env.details {
        match value {
            serde_json::Value::String(s) => write!(f, "\n{key}: {s}")?,
            other => write!(f, "\n{key}: {other}")?,
        }
    }
    Ok(())
}
