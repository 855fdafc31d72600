//! Near-miss suggestions for the envelope's `fuzzy_matches`.

/// Up to `limit` candidates that look like a misspelling of `target`, best
/// first.
///
/// Comparison ignores case. A candidate qualifies when its optimal string
/// alignment distance (Damerau-Levenshtein without repeated edits, from
/// [`strsim`]) to `target` is at most half the length of `target`, in
/// characters, plus one; so `EMPLOYES` finds `EMPLOYEES` but not `DEPT`.
/// Ranking is by distance, then by Jaro-Winkler similarity (a shared prefix
/// wins), then by the candidate's own text, so the order is deterministic
/// whatever the input order. A candidate listed twice is reported once;
/// spellings that differ only in case are distinct candidates. An exact,
/// case-insensitive match ranks first with distance zero.
///
/// ```
/// # extern crate envelope_core as envelope;
/// let names = ["EMPLOYEES", "EMPLOYEE_HISTORY", "DEPARTMENTS", "EMP"];
/// assert_eq!(
///     envelope::fuzzy::suggest("employes", names, 2),
///     ["EMPLOYEES", "EMP"],
/// );
/// ```
#[must_use]
pub fn suggest<I>(target: &str, candidates: I, limit: usize) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    suggest_where(target, candidates, limit, |_, _, _| true)
}

/// [`suggest`] held to a stricter rule of its caller's: a candidate is a
/// near miss only if `also(target, candidate, distance)` holds as well,
/// given the case-folded texts and their distance. The rule applies
/// before the best `limit` are taken, so a candidate it refuses leaves
/// room for the next.
pub(crate) fn suggest_where<I>(
    target: &str,
    candidates: I,
    limit: usize,
    also: impl Fn(&str, &str, usize) -> bool,
) -> Vec<String>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    if limit == 0 {
        return Vec::new();
    }
    let needle = target.to_lowercase();
    let threshold = needle.chars().count() / 2 + 1;
    let mut scored: Vec<(usize, f64, String, String)> = Vec::new();
    for candidate in candidates {
        let candidate = candidate.as_ref();
        if scored.iter().any(|(_, _, seen, _)| seen == candidate) {
            continue;
        }
        let folded = candidate.to_lowercase();
        let distance = strsim::osa_distance(&needle, &folded);
        if distance <= threshold && also(&needle, &folded, distance) {
            let similarity = strsim::jaro_winkler(&needle, &folded);
            scored.push((distance, similarity, candidate.to_owned(), folded));
        }
    }
    scored.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| b.1.total_cmp(&a.1))
            .then_with(|| a.2.cmp(&b.2))
    });
    scored
        .into_iter()
        .take(limit)
        .map(|(_, _, candidate, _)| candidate)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{suggest, suggest_where};

    #[test]
    fn ranks_by_distance_then_similarity_then_text() {
        let names = ["EMPLOYEES", "EMPLOYEE", "DEPARTMENTS", "employes_v", "JOBS"];
        assert_eq!(
            suggest("EMPLOYES", names, 5),
            ["EMPLOYEES", "EMPLOYEE", "employes_v"]
        );
    }

    #[test]
    fn order_does_not_depend_on_input_order() {
        let a = suggest("cty", ["city", "cite", "cat", "CITY", "city"], 10);
        let b = suggest("cty", ["cat", "CITY", "cite", "city"], 10);
        assert_eq!(a, ["CITY", "city", "cite", "cat"]);
        assert_eq!(a, b);
    }

    #[test]
    fn exact_match_case_insensitive_first_and_limit_respected() {
        assert_eq!(
            suggest("Paris", ["PARIS", "Parma", "Pars"], 2),
            ["PARIS", "Pars"]
        );
        assert!(suggest("x", ["abcdef"], 3).is_empty());
        assert!(suggest("abc", ["abc"], 0).is_empty());
        assert!(suggest("", Vec::<String>::new(), 3).is_empty());
    }

    #[test]
    fn a_stricter_rule_applies_before_the_limit() {
        let names = ["hell", "hallo", "help", "jelly"];
        assert_eq!(suggest("hello", names, 2), ["hell", "hallo"]);
        // Only what ends in `p`, and of that the best one: `help`, which
        // the best two alone did not hold.
        let ends_in_p = |_: &str, name: &str, _| name.ends_with('p');
        assert_eq!(suggest_where("HELLO", names, 1, ends_in_p), ["help"]);
        // The rule sees the folded texts and their distance.
        assert_eq!(suggest("hello", names, 3), ["hell", "hallo", "help"]);
        let one_edit = |target: &str, _: &str, distance| target == "hello" && distance == 1;
        assert_eq!(
            suggest_where("HELLO", names, 3, one_edit),
            ["hell", "hallo"]
        );
    }
}
