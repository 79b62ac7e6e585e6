//! The public types carry the traits a caller expects (the Rust API guidelines' C-COMMON-TRAITS,
//! C-CONV, C-DEBUG and C-SEND-SYNC): checked at compile time, and the conversions' results.

use bytes::{Bytes, BytesMut};
use wirebytes_rope::{
    ByteQueue, ByteString, ByteStringBuilder, Chunks, Fragments, IntoReader, Reader,
};

fn shared<T: Send + Sync + Unpin + Clone + core::fmt::Debug>() {}
fn value<T: Eq + Ord + core::hash::Hash + Default>() {}

#[test]
fn the_types_have_the_common_traits() {
    shared::<ByteString>();
    value::<ByteString>();
    shared::<ByteQueue>();
    shared::<ByteStringBuilder>();
    shared::<IntoReader>();
    shared::<Reader<'static>>();
    shared::<Chunks<'static>>();
    shared::<Fragments<'static>>();
    fn defaults<T: Default>() {}
    defaults::<ByteQueue>();
    defaults::<ByteStringBuilder>();
}

#[test]
fn conversions_keep_the_content() {
    let want = ByteString::from_static(b"abc");
    assert_eq!(ByteString::from(Bytes::from_static(b"abc")), want);
    assert_eq!(ByteString::from(BytesMut::from(&b"abc"[..])), want);
    assert_eq!(ByteString::from(b"abc".to_vec()), want);
    assert_eq!(ByteString::from(String::from("abc")), want);
    assert_eq!(ByteString::from("abc"), want);
    assert_eq!(Bytes::from(want.clone()), Bytes::from_static(b"abc"));
    let queue = ByteQueue::from(want.clone());
    assert_eq!(queue, want);
    assert_eq!(want, queue);
    let mut builder = ByteStringBuilder::new();
    builder.extend_from_slice(b"ab");
    let copy = builder.clone();
    builder.extend_from_slice(b"c");
    assert_eq!(
        (builder.build(), copy.build()),
        (want, ByteString::from("ab"))
    );
}
