//! stub
use clap::Args;
use std::error::Error;
/// Options of `widephase bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {}
pub fn main(_args: &BenchArgs) -> Result<bool, Box<dyn Error>> {
    Ok(true)
}
