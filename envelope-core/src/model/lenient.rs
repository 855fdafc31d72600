//! serde helpers for lenient reading of what other implementations write:
//! Go writes a nil slice or pointer as `null`, pydantic writes `null` for
//! every unset field, and Python writes `seconds * 1000` as a float
//! (`1500.0`). They know no type of this crate; the readers of the
//! envelope (`envelope/read.rs`), of `ToolResult` and of `ArgumentError`
//! use them.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::{Deserialize, Serialize};

/// `deserialize_with` for a field whose `null` means its default value
/// (`ToolResult::is_error`: `null` reads as `false`).
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}

/// `ora_code`: a whole number in `i32` range, written as an integer or as a
/// float without a fraction (`942.0`); `null` is `None`.
pub(crate) fn ora_code<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i32>, D::Error> {
    deserializer.deserialize_option(WholeNumber::new("ora_code"))
}

/// `retry_after_ms`: a whole number in `u64` range, written as an integer or
/// as a float without a fraction (`1500.0`); `null` is `None`.
pub(crate) fn retry_after_ms<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    deserializer.deserialize_option(WholeNumber::new("retry_after_ms"))
}

/// An integer type [`WholeNumber`] reads.
trait Integer: TryFrom<i128> + Serialize + fmt::Display {
    const MIN: Self;
    const MAX: Self;
}

impl Integer for i32 {
    const MIN: Self = i32::MIN;
    const MAX: Self = i32::MAX;
}

impl Integer for u64 {
    const MIN: Self = u64::MIN;
    const MAX: Self = u64::MAX;
}

/// Reads an optional whole number of type `T`. Its `expecting` names the
/// field, so every error says which key was wrong:
/// ``invalid value: floating point `1500.5`, expected `retry_after_ms` as a
/// whole number from 0 to 18446744073709551615``.
struct WholeNumber<T> {
    field: &'static str,
    integer: PhantomData<T>,
}

impl<T> WholeNumber<T> {
    fn new(field: &'static str) -> Self {
        WholeNumber {
            field,
            integer: PhantomData,
        }
    }

    fn whole<E: de::Error>(&self, value: i128, unexpected: Unexpected<'_>) -> Result<Option<T>, E>
    where
        T: Integer,
    {
        T::try_from(value)
            .map(Some)
            .map_err(|_| E::invalid_value(unexpected, self))
    }
}

impl<'de, T: Integer> Visitor<'de> for WholeNumber<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` as a whole number from {} to {}",
            self.field,
            T::MIN,
            T::MAX
        )
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Self::Value, E> {
        self.whole(i128::from(value), Unexpected::Signed(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Self::Value, E> {
        self.whole(i128::from(value), Unexpected::Unsigned(value))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Self::Value, E> {
        self.whole(value, Unexpected::Other("integer"))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Self::Value, E> {
        let value = i128::try_from(value).unwrap_or(i128::MAX);
        self.whole(value, Unexpected::Other("integer"))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Self::Value, E> {
        if value.is_finite() && value.fract() == 0.0 {
            // Whole and finite: `as` is exact below 2^127 and saturates
            // above, where `try_from` refuses it anyway.
            #[allow(clippy::cast_possible_truncation)]
            let whole = value as i128;
            self.whole(whole, Unexpected::Float(value))
        } else {
            Err(E::invalid_value(Unexpected::Float(value), &self))
        }
    }
}

/// A `Retry-After` header's value (RFC 9110 section 10.2.3):
/// delay-seconds (`120`), or an HTTP date (`Sun, 06 Nov 1994 08:49:37
/// GMT`, through `httpdate`) as the time from `now` to it, zero for a date
/// in the past; `None` for anything else.
#[cfg(any(feature = "reqwest", feature = "reqwest012", feature = "host"))]
pub(crate) fn retry_after(value: &str, now: std::time::SystemTime) -> Option<std::time::Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(std::time::Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or_default())
}

#[cfg(all(test, any(feature = "reqwest", feature = "host")))]
mod retry_after_tests {
    use std::time::Duration;

    use super::retry_after;

    #[test]
    fn retry_after_values() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("-5", now), None);
        assert_eq!(retry_after("soon", now), None);
    }
}

#[cfg(feature = "host")]
/// A JSON number of milliseconds (an integer, or a float rounded up, so a
/// wait never ends early), saturating at `u64::MAX`; `None` for anything
/// else, a negative number included.
pub(crate) fn millis(value: &serde_json::Value) -> Option<u64> {
    if let Some(whole) = value.as_u64() {
        return Some(whole);
    }
    let float = value
        .as_f64()
        .filter(|float| float.is_finite() && *float >= 0.0)?;
    // `as` saturates at `u64::MAX`.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(float.ceil() as u64)
}
