//! The prose form of an envelope: `ErrorEnvelope`'s `Display`.

use std::fmt;

use crate::model::envelope::ErrorEnvelope;

impl fmt::Display for ErrorEnvelope {
    /// A compact text form for models that read prose better than JSON:
    ///
    /// ```text
    /// OBJECT_NOT_FOUND (TABLE_MISSING): object EMPLOYES does not exist
    /// did you mean: EMPLOYEES, EMPLOYEE
    /// suggested tool: schema_inspect
    /// next step: check the spelling
    /// retry after: 250 ms
    /// ```
    ///
    /// The first line is always there; each further line only when its field
    /// is set, in the order shown, followed by `ora code`, `help` and one
    /// `key: value` line per detail.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.error_class.as_str())?;
        if let Some(code) = &self.code {
            write!(f, " ({code})")?;
        }
        write!(f, ": {}", self.message)?;
        if !self.fuzzy_matches.is_empty() {
            f.write_str("\ndid you mean: ")?;
            for (i, name) in self.fuzzy_matches.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                f.write_str(name)?;
            }
        }
        if let Some(tool) = &self.suggested_tool {
            write!(f, "\nsuggested tool: {tool}")?;
        }
        for step in &self.next_steps {
            write!(f, "\nnext step: {step}")?;
        }
        if let Some(ms) = self.retry_after_ms {
            write!(f, "\nretry after: {ms} ms")?;
        }
        if let Some(code) = self.ora_code {
            write!(f, "\nora code: {code}")?;
        }
        if let Some(url) = &self.help_url {
            write!(f, "\nhelp: {url}")?;
        }
        for (key, value) in &self.details {
            match value {
                serde_json::Value::String(s) => write!(f, "\n{key}: {s}")?,
                other => write!(f, "\n{key}: {other}")?,
            }
        }
        Ok(())
    }
}
