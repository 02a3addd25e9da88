//! Reading input files with a size cap, so that a device or a huge file is
//! refused after `cap` bytes instead of filling memory.

use std::io::Read;
use std::path::Path;

/// The bytes of the file at `path`, or a one-line reason: it cannot be
/// read, or it holds more than `cap` bytes (the reason names the cap).
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(format!("larger than {} MiB", cap >> 20));
    }
    Ok(bytes)
}

/// The text of the file at `path`, as [`read_capped`] reads it; text that is
/// not UTF-8 is an error too.
pub fn read_capped_text(path: &Path, cap: u64) -> Result<String, String> {
    String::from_utf8(read_capped(path, cap)?).map_err(|_| "not UTF-8 text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_without_end_is_refused_at_the_cap() {
        let reason = read_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(reason, "larger than 1 MiB");
        let text = std::env::temp_dir().join(format!("orchard-cap-{}", std::process::id()));
        std::fs::write(&text, "tuning = 1").unwrap();
        assert_eq!(read_capped_text(&text, 10).unwrap(), "tuning = 1");
        assert!(read_capped_text(&text, 9).is_err());
        std::fs::remove_file(text).ok();
    }
}
