// The floor of one request (npm run bench): the smallest node:http script that GETs a URL and prints
// the answer's `data` as indented JSON. Whatever tokenintel does beyond this is its own cost.
import http from "node:http";

http.get(process.argv[2], (res) => {
  let body = "";
  res.setEncoding("utf8").on("data", (chunk) => (body += chunk));
  res.on("end", () => process.stdout.write(`${JSON.stringify(JSON.parse(body).data, null, 2)}\n`));
});
