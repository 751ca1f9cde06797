import { Button } from "antd";

export default function Home() {
  return <main><h1>Meridian</h1><Button type="primary">Trade</Button></main>;
}
