import http from 'node:http';
http.createServer((req, res) => { if (req.url === '/status') return void res.end('{}'); /* hang */ }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
