import { main } from './main';

await main(process.argv.slice(2));
