const D=require('better-sqlite3');
const dir=process.argv[2]; const open=()=>{const db=new D(dir+'/app.db',{readonly:true}); db.pragma('cache_size = -65536'); db.pragma('mmap_size = 2147418112'); return db;};
let db=open();
const maxU=db.prepare('select max(updated_at) m from items').get().m;
const T=(f)=>{const s=process.hrtime.bigint();const r=f();return [Number(process.hrtime.bigint()-s)/1e6,r];};
const scope=`items.deleted_at is null and items.parent_id is not null and ((items.space_type=2 and items.owner_id=2))`;
for (const kw of ['minutes','draft','minutes','draft']) {
  const to=maxU-Math.floor(Math.random()*700)*86400000, from=to-365*86400000;
  const tri=[...kw].slice(0,-2).map((_,i)=>kw.slice(i,i+3));
  const [a]=T(()=>db.prepare(`select case when count(*) < ${tri.length} then 0 else min(doc) end as n from items_name_trigram_terms where term in (${tri.map(()=>'?').join(',')})`).get(...tri));
  const [b]=T(()=>db.prepare('select max(id) n from items').get());
  const [c,n]=T(()=>db.prepare(`select count(*) n from (select 1 from items indexed by items_updated where updated_at >= ? and updated_at < ? limit 400001)`).get(from,to).n);
  const [d,rows]=T(()=>db.prepare(`select items.id, items.updated_at k from items indexed by items_updated where items.name_key like ? and ${scope} and items.updated_at>=? and items.updated_at<? limit 10001`).all(`%${kw}%`,from,to));
  const [e]=T(()=>rows.sort((x,y)=>y.k-x.k||y.id-x.id));
  console.log(kw, `terms ${a.toFixed(1)} maxid ${b.toFixed(2)} range ${c.toFixed(1)} (${n}) walk ${d.toFixed(1)} (${rows.length}) sort ${e.toFixed(1)}`);
}
