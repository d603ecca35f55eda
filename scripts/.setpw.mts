import pg from 'pg';
import { hashPassword } from '../server/auth/passwords';
const client = new pg.Client({ connectionString: process.env.URL });
await client.connect();
const r = await client.query("update users set email = 'shots@example.com', password_hash = $1, is_active = true where id = (select min(id) from users where is_superuser) returning id", [await hashPassword('shots-password-123456')]);
console.log(r.rows);
await client.end();
