//! wirebytes-ascii: skeleton, filled in by its own issue.
#![no_std]
#![forbid(unsafe_code)]
