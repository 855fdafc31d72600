//! Collects every error of one derive, so they are reported together.

use std::cell::RefCell;

/// An error sink shared by the parsing and validation passes.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn push(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// How many errors were collected so far.
    pub fn len(&self) -> usize {
        self.errors.borrow().len()
    }

    /// All collected errors combined into one, or `Ok` when there were none.
    pub fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}
