const D=require('better-sqlite3');
const db=new D('/tmp/exp.db',{readonly:true}); db.pragma('cache_size = -65536'); db.pragma('mmap_size = 2147418112');
const maxU=db.prepare('select max(updated_at) m from items').get().m;
const T=(f)=>{const s=process.hrtime.bigint();const r=f();return Number(process.hrtime.bigint()-s)/1e6;};
for (let i=0;i<4;i++){
  const to=maxU-Math.floor(Math.random()*700)*86400000, from=to-365*86400000;
  const a=T(()=>db.prepare(`select count(*) n from (select 1 from items indexed by items_updated where updated_at >= ? and updated_at < ? limit 400001)`).get(from,to));
  const b=T(()=>db.prepare(`select count(*) n from (select 1 from items indexed by items_updated_cover where updated_at >= ? and updated_at < ? limit 400001)`).get(from,to));
  console.log('old index', a.toFixed(1), 'cover', b.toFixed(1));
}
