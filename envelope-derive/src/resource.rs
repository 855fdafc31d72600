//! `resource = server | caller` on a `transparent` variant: whose resource
//! the wrapped error is about, which decides whether its caller-owned
//! classes stand (`caller`) or become server-owned (`server`, the runtime's
//! `ErrorEnvelope::for_server_resource`).

use syn::Ident;

use crate::names;

/// `resource = server | caller`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Resource {
    /// The wrapped error is about what the caller sent (a path, a query):
    /// its envelope as it is.
    Caller,
    /// The wrapped error is about the server's own resources: a caller- or
    /// user-owned class becomes server-owned.
    Server,
}

impl Resource {
    /// The values as the attribute writes them, in the order messages list
    /// them.
    const SPELLINGS: [(&'static str, Resource); 2] =
        [("server", Resource::Server), ("caller", Resource::Caller)];

    /// The value `ident` names (in any case), or the error saying what it
    /// may have meant.
    pub fn from_ident(ident: &Ident) -> syn::Result<Resource> {
        let text = names::unraw(ident).to_lowercase();
        if let Some((_, resource)) = Self::SPELLINGS.iter().find(|(s, _)| *s == text) {
            return Ok(*resource);
        }
        let known: Vec<&str> = Self::SPELLINGS.iter().map(|(s, _)| *s).collect();
        Err(names::unknown_name(ident, "resource", &known))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_typos() {
        let ident = |s: &str| Ident::new(s, proc_macro2::Span::call_site());
        assert_eq!(
            Resource::from_ident(&ident("server")).ok(),
            Some(Resource::Server)
        );
        assert_eq!(
            Resource::from_ident(&ident("Caller")).ok(),
            Some(Resource::Caller)
        );
        let err = Resource::from_ident(&ident("servr"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unknown resource `servr`; did you mean `server`?")
        );
        let err = Resource::from_ident(&ident("user"))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("unknown resource `user`; expected one of: server, caller")
        );
    }
}
