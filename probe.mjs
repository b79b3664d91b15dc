import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import http from 'node:http';
const srv = http.createServer((req,res)=>{res.writeHead(401,{'content-type':'text/plain'}); res.end('bad key: Bearer sk-abcdef1234567890 '+req.headers.authorization)});
await new Promise(r=>srv.listen(0,'127.0.0.1',r));
const port=srv.address().port;
for (const T of [StreamableHTTPClientTransport, SSEClientTransport]) {
  const c = new Client({name:'x',version:'1'});
  try { await c.connect(new T(new URL(`http://127.0.0.1:${port}/mcp?api_key=QQQSECRET`), {requestInit:{headers:{Authorization:'Bearer sk-abcdef1234567890'}}})); } catch(e) { console.log(T.name, '->', e.message); }
}
for (const T of [StreamableHTTPClientTransport, SSEClientTransport]) {
  const c = new Client({name:'x',version:'1'});
  try { await c.connect(new T(new URL(`http://127.0.0.1:1/mcp?api_key=QQQSECRET`), {requestInit:{headers:{Authorization:'Bearer sk-abcdef1234567890'}}})); } catch(e) { console.log(T.name, '->', e.message, e.cause?.message); }
}
srv.close();
