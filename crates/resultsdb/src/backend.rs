//! The two database backends behind one small interface, so every query is written once.
//!
//! SQL is written with `?` placeholders (SQLite style) and rewritten to `$1, $2 …` for
//! PostgreSQL. Values travel as [`Val`]; both backends read rows back into `Vec<Val>`, so the
//! rest of the crate never sees a driver type.

use crate::Error;

/// A column value as both backends understand it (integers are 64-bit, reals doubles).
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Val {
    pub fn opt_text(s: Option<&str>) -> Val {
        s.map_or(Val::Null, |s| Val::Text(s.to_string()))
    }
    pub fn opt_real(v: Option<f64>) -> Val {
        v.map_or(Val::Null, Val::Real)
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Val::Int(i) => Some(*i),
            Val::Real(r) => Some(*r as i64),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Val::Int(i) => Some(*i as f64),
            Val::Real(r) => Some(*r),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Text(s) => Some(s),
            _ => None,
        }
    }
    pub fn into_string(self) -> Option<String> {
        match self {
            Val::Text(s) => Some(s),
            _ => None,
        }
    }
}

/// Which SQL dialect a statement is for (DDL differs, queries are shared).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// Run statements; implemented by connections and by open transactions of both backends.
pub trait Exec {
    fn dialect(&self) -> Dialect;
    /// Runs one statement, returns the number of rows changed.
    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64, Error>;
    /// Runs a query, returns every row.
    fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>, Error>;
    /// Runs several `;`-separated statements without parameters (migrations).
    fn batch(&mut self, sql: &str) -> Result<(), Error>;
}

/// `?` → `$n` (no statement of this crate has a `?` inside a string literal).
pub fn numbered_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(c);
        }
    }
    out
}

// ---- SQLite ----

impl rusqlite::ToSql for Val {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Val::Null => ValueRef::Null,
            Val::Int(i) => ValueRef::Integer(*i),
            Val::Real(r) => ValueRef::Real(*r),
            Val::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

fn sqlite_row(row: &rusqlite::Row<'_>, n: usize) -> rusqlite::Result<Vec<Val>> {
    use rusqlite::types::ValueRef;
    (0..n)
        .map(|i| {
            Ok(match row.get_ref(i)? {
                ValueRef::Null => Val::Null,
                ValueRef::Integer(i) => Val::Int(i),
                ValueRef::Real(r) => Val::Real(r),
                ValueRef::Text(t) | ValueRef::Blob(t) => {
                    Val::Text(String::from_utf8_lossy(t).into_owned())
                }
            })
        })
        .collect()
}

fn sqlite_exec(c: &rusqlite::Connection, sql: &str, params: &[Val]) -> Result<u64, Error> {
    let mut st = c.prepare_cached(sql)?;
    Ok(st.execute(rusqlite::params_from_iter(params.iter()))? as u64)
}

fn sqlite_query(
    c: &rusqlite::Connection,
    sql: &str,
    params: &[Val],
) -> Result<Vec<Vec<Val>>, Error> {
    let mut st = c.prepare_cached(sql)?;
    let n = st.column_count();
    let rows = st.query_map(rusqlite::params_from_iter(params.iter()), |r| {
        sqlite_row(r, n)
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

impl Exec for rusqlite::Connection {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }
    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64, Error> {
        sqlite_exec(self, sql, params)
    }
    fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>, Error> {
        sqlite_query(self, sql, params)
    }
    fn batch(&mut self, sql: &str) -> Result<(), Error> {
        Ok(self.execute_batch(sql)?)
    }
}

impl Exec for rusqlite::Transaction<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }
    fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64, Error> {
        sqlite_exec(self, sql, params)
    }
    fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>, Error> {
        sqlite_query(self, sql, params)
    }
    fn batch(&mut self, sql: &str) -> Result<(), Error> {
        Ok(self.execute_batch(sql)?)
    }
}

// ---- PostgreSQL (the `postgres` feature) ----

#[cfg(feature = "postgres")]
impl postgres::types::ToSql for Val {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        match self {
            Val::Null => Ok(IsNull::Yes),
            // Integers and reals adapt to the column type the server inferred.
            Val::Int(i) if *ty == Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
            Val::Int(i) if *ty == Type::FLOAT8 => (*i as f64).to_sql(ty, out),
            Val::Int(i) => i.to_sql(ty, out),
            Val::Real(r) => r.to_sql(ty, out),
            Val::Text(s) => s.as_str().to_sql(ty, out),
        }
    }
    fn accepts(ty: &postgres::types::Type) -> bool {
        use postgres::types::Type;
        [
            Type::INT4,
            Type::INT8,
            Type::FLOAT8,
            Type::TEXT,
            Type::VARCHAR,
        ]
        .contains(ty)
    }
    postgres::types::to_sql_checked!();
}

#[cfg(feature = "postgres")]
fn pg_params(params: &[Val]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    params
        .iter()
        .map(|p| p as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

#[cfg(feature = "postgres")]
fn pg_row(row: &postgres::Row) -> Result<Vec<Val>, Error> {
    use postgres::types::Type;
    let mut out = Vec::with_capacity(row.len());
    for (i, col) in row.columns().iter().enumerate() {
        let t = col.type_();
        let v = if *t == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Val::Int)
        } else if *t == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|v| Val::Int(v.into()))
        } else if *t == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i)?.map(Val::Real)
        } else {
            row.try_get::<_, Option<String>>(i)?.map(Val::Text)
        };
        out.push(v.unwrap_or(Val::Null));
    }
    Ok(out)
}

#[cfg(feature = "postgres")]
macro_rules! pg_exec_impl {
    ($t:ty) => {
        impl Exec for $t {
            fn dialect(&self) -> Dialect {
                Dialect::Postgres
            }
            fn exec(&mut self, sql: &str, params: &[Val]) -> Result<u64, Error> {
                let sql = numbered_placeholders(sql);
                Ok(self.execute(sql.as_str(), &pg_params(params))?)
            }
            fn query(&mut self, sql: &str, params: &[Val]) -> Result<Vec<Vec<Val>>, Error> {
                let sql = numbered_placeholders(sql);
                let rows = postgres::GenericClient::query(self, sql.as_str(), &pg_params(params))?;
                rows.iter().map(pg_row).collect()
            }
            fn batch(&mut self, sql: &str) -> Result<(), Error> {
                Ok(self.batch_execute(sql)?)
            }
        }
    };
}

#[cfg(feature = "postgres")]
pg_exec_impl!(postgres::Client);
#[cfg(feature = "postgres")]
pg_exec_impl!(postgres::Transaction<'_>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_order() {
        assert_eq!(
            numbered_placeholders("SELECT a FROM t WHERE b = ? AND c > ?"),
            "SELECT a FROM t WHERE b = $1 AND c > $2"
        );
    }
}
