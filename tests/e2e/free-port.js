// Prints a TCP port on 127.0.0.1 that is free now (the kernel's pick), for a test server.
'use strict';
const server = require('net').createServer();
server.listen(0, '127.0.0.1', () => {
  console.log(server.address().port);
  server.close();
});
