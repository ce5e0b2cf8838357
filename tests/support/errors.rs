//! What tests check of an error.

use playstyles::Error;

/// The field a config error names, or a description of the unexpected result.
pub fn config_field<T>(r: Result<T, Error>) -> String {
    match r {
        Err(Error::Config { field, .. }) => field,
        Err(e) => format!("not a config error: {e}"),
        Ok(_) => "(accepted)".to_string(),
    }
}
