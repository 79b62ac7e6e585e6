//! JNI's forms: NUL-terminated C strings of modified UTF-8, built at run time
//! ([`encode_cstring`]) or at compile time ([`cstr!`](crate::cstr!)), and read back
//! ([`decode_cstr`]).

use alloc::borrow::Cow;
use alloc::ffi::CString;
use alloc::vec::Vec;
use core::ffi::CStr;

use crate::{DecodeError, decode, encode_to_vec, encoded_len};

/// Encodes text as a NUL-terminated C string of modified UTF-8, as JNI's `NewStringUTF`,
/// `FindClass`, `GetMethodID` and friends take it.
///
/// Modified UTF-8 never holds a `00` byte (U+0000 is `C0 80`), so this cannot fail: every
/// text has its C string. One allocation of exactly `encoded_len(text) + 1` bytes.
///
/// # Examples
///
/// ```
/// let name = wirebytes_mutf8::encode_cstring("nul \0 and \u{1F600}");
/// assert_eq!(name.as_bytes(), b"nul \xc0\x80 and \xed\xa0\xbd\xed\xb8\x80");
/// assert_eq!(name.as_bytes_with_nul().last(), Some(&0));
/// ```
#[must_use]
pub fn encode_cstring(text: &str) -> CString {
    let mut bytes = Vec::with_capacity(encoded_len(text) + 1);
    encode_to_vec(text, &mut bytes);
    // Without a `00` byte by construction: `CString::new` finds none and adds the
    // terminator in the room reserved for it.
    CString::new(bytes).unwrap_or_default()
}

/// Decodes a NUL-terminated C string of modified UTF-8 (what JNI's `GetStringUTFChars`
/// returns), as [`decode`](crate::decode()) decodes its bytes before the terminator.
///
/// # Errors
///
/// As [`decode`](crate::decode()): a [`DecodeError`] whose
/// [`valid_up_to`](DecodeError::valid_up_to) is the offset of the offending sequence in the
/// string.
///
/// # Examples
///
/// ```
/// use wirebytes_mutf8::decode_cstr;
///
/// assert_eq!(decode_cstr(c"java/lang/String").unwrap(), "java/lang/String");
/// assert_eq!(decode_cstr(c"a\xc0\x80b").unwrap(), "a\0b");
/// assert_eq!(decode_cstr(c"ab\xff").unwrap_err().valid_up_to(), 2);
/// ```
#[must_use = "the decoded text, or where the string is malformed"]
pub fn decode_cstr(s: &CStr) -> Result<Cow<'_, str>, DecodeError> {
    decode(s.to_bytes())
}

/// A `&'static CStr` of modified UTF-8 for a string literal, encoded at compile time: JNI
/// class, method and field names and signatures, at no cost at run time.
///
/// The literal is encoded as [`encode`](crate::encode()) does (U+0000 as `C0 80`, a char
/// above U+FFFF as two 3-byte surrogates) by `const fn`s, and terminated with a `00` byte.
///
/// # Examples
///
/// ```
/// use core::ffi::CStr;
///
/// const CLASS: &CStr = wirebytes_mutf8::cstr!("java/lang/String");
/// assert_eq!(CLASS, c"java/lang/String");
///
/// let odd: &'static CStr = wirebytes_mutf8::cstr!("nul \0 and \u{1F600}");
/// assert_eq!(odd.to_bytes(), b"nul \xc0\x80 and \xed\xa0\xbd\xed\xb8\x80");
/// ```
///
/// Anything but a string literal does not compile:
///
/// ```compile_fail
/// let name = String::from("java/lang/String");
/// let c = wirebytes_mutf8::cstr!(name);
/// ```
#[macro_export]
macro_rules! cstr {
    ($lit:literal) => {{
        const TEXT: &str = $lit;
        const LEN: usize = $crate::__cstr::len_with_nul(TEXT);
        const BYTES: [u8; LEN] = $crate::__cstr::encode_with_nul::<LEN>(TEXT);
        const CSTR: &::core::ffi::CStr = $crate::__cstr::as_cstr(&BYTES);
        CSTR
    }};
}

/// The `const fn`s behind [`cstr!`](crate::cstr!): not part of the API and not covered by
/// semver; only the macro, which names them by `$crate`, may call them.
#[doc(hidden)]
pub mod __cstr {
    use core::ffi::CStr;

    /// The length of `text`'s modified UTF-8 form, plus one for the terminator.
    #[must_use]
    pub const fn len_with_nul(text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut len = bytes.len() + 1;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == 0 {
                len += 1;
            } else if bytes[i] >= 0xF0 {
                len += 2;
            }
            i += 1;
        }
        len
    }

    /// `text`'s modified UTF-8 form and a `00` byte, in exactly `N` bytes.
    ///
    /// # Panics
    ///
    /// When `N` is not [`len_with_nul`]`(text)` (at compile time, where the macro calls it).
    #[must_use]
    pub const fn encode_with_nul<const N: usize>(text: &str) -> [u8; N] {
        assert!(N == len_with_nul(text), "the length is len_with_nul(text)");
        let bytes = text.as_bytes();
        let mut out = [0u8; N];
        let (mut i, mut o) = (0, 0);
        while i < bytes.len() {
            let b = bytes[i];
            if b == 0 {
                out[o] = 0xC0;
                out[o + 1] = 0x80;
                (i, o) = (i + 1, o + 2);
            } else if b >= 0xF0 {
                let s = ((b as u32 & 0x07) << 18)
                    | ((bytes[i + 1] as u32 & 0x3F) << 12)
                    | ((bytes[i + 2] as u32 & 0x3F) << 6)
                    | (bytes[i + 3] as u32 & 0x3F);
                let high = 0xD800 + ((s - 0x10000) >> 10);
                let low = 0xDC00 + (s & 0x3FF);
                out[o] = 0xED;
                out[o + 1] = 0x80 | ((high >> 6) & 0x3F) as u8;
                out[o + 2] = 0x80 | (high & 0x3F) as u8;
                out[o + 3] = 0xED;
                out[o + 4] = 0x80 | ((low >> 6) & 0x3F) as u8;
                out[o + 5] = 0x80 | (low & 0x3F) as u8;
                (i, o) = (i + 4, o + 6);
            } else {
                out[o] = b;
                (i, o) = (i + 1, o + 1);
            }
        }
        out
    }

    /// `bytes` as a `CStr`.
    ///
    /// # Panics
    ///
    /// When `bytes` is not NUL-terminated or holds another `00` (never for
    /// [`encode_with_nul`]'s output; at compile time, where the macro calls it).
    #[must_use]
    pub const fn as_cstr(bytes: &[u8]) -> &CStr {
        match CStr::from_bytes_with_nul(bytes) {
            Ok(s) => s,
            Err(_) => panic!("modified UTF-8 holds no 00 byte"),
        }
    }
}
