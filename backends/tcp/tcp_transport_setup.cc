// TcpTransport: joining the cluster (tcp_transport.h). Listen binds (or takes
// the coordinator's bound socket); Start accepts and dials the peers; each
// connection authenticates (handshake.h), then a member registers with the
// coordinator, which sends the roster once every rank has; CheckReady
// releases Start's wait when every peer is connected and authenticated.
#include <algorithm>
#include <cstdio>
#include <utility>

#include "backends/tcp/tcp_transport.h"
#include "core/base/check.h"

namespace augur::tcp {

namespace {

using SteadyClock = std::chrono::steady_clock;

bool IsLoopbackHost(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

}  // namespace

Status TcpTransport::Listen() {
  std::string host = options_.bind_host;
  if (host.empty()) {
    host = options_.rank == 0                          ? options_.coordinator_host
           : IsLoopbackHost(options_.coordinator_host) ? "127.0.0.1"
                                                       : "0.0.0.0";
  }
  const uint16_t port = options_.rank == 0 ? options_.coordinator_port : 0;
  asio::error_code ec;
  if (options_.rank == 0 && options_.coordinator_listen_fd >= 0) {  // bound by the caller
    acceptor_.assign(asio::ip::tcp::v4(), options_.coordinator_listen_fd, ec);
    if (ec) return Status::Error("cannot take over the coordinator socket: " + ec.message());
    const asio::ip::address a = acceptor_.local_endpoint().address();
    advertised_.host = a.is_unspecified() ? "" : a.to_string();
    advertised_.port = acceptor_.local_endpoint().port();
    return Status::Ok();
  }
  asio::ip::tcp::resolver resolver(io_);
  auto results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty()) {
    return Status::Error("cannot resolve listen address '" + host + "': " + ec.message());
  }
  const asio::ip::tcp::endpoint ep = results.begin()->endpoint();
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Status::Error("cannot listen on " + host + ":" + std::to_string(port) + ": " +
                         ec.message() + (options_.rank == 0 ? " (is --coordinator free?)" : ""));
  }
  advertised_.host = ep.address().is_unspecified() ? "" : ep.address().to_string();
  advertised_.port = acceptor_.local_endpoint().port();
  return Status::Ok();
}

Status TcpTransport::Start() {
  std::fprintf(stderr, "%s'%s' of %u nodes (coordinator %s:%u)\n",
               JoiningMarker(options_.rank).c_str(), options_.cluster_id.c_str(), options_.nodes,
               options_.coordinator_host.c_str(), options_.coordinator_port);
  if (Status s = Listen(); !s.ok()) return s;
  Accept();
  poller_.Start();
  asio::post(io_, [this] {
    Tick();
    if (options_.rank != 0) {
      Dial(0, PeerAddress{options_.coordinator_host, options_.coordinator_port},
           start_ + ToDuration(options_.peer_timeout_seconds));
    } else {
      CheckReady();  // a cluster of one is ready at once
    }
  });
  thread_ = std::thread([this] {
    // Read by Start's caller only after the ready handshake below (mu_).
    io_slice_ = SetThreadSlice(options_.io_slice_seconds);
    io_.run();
  });
  Status s;
  {
    std::unique_lock<std::mutex> g(mu_);
    WaitChecked(
        g, [&] { return ready_; }, "interrupted while joining the cluster");
    s = failure_;
  }
  if (s.ok()) {
    Log("joined cluster '" + options_.cluster_id + "' of " + std::to_string(options_.nodes) +
        " nodes (listening on port " + std::to_string(advertised_.port) + ")");
    if (!io_slice_.ok() || io_slice_.value() == SliceOutcome::kNotFairPolicy)
      Log("the I/O thread's --io-slice is not in effect: " + io_slice_status());
  }
  return s;
}

void TcpTransport::Accept() {
  acceptor_.async_accept([this](const asio::error_code& ec, asio::ip::tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec && CountStrangers() >= options_.max_unauthenticated) {
      asio::error_code e;
      const auto from = socket.remote_endpoint(e);
      Log("refused connection from " +
          (e ? std::string("unknown address") : from.address().to_string()) + ": " +
          std::to_string(options_.max_unauthenticated) +
          " connections are already in their handshake");
      socket.close(e);
    } else if (!ec) {
      auto c = std::make_shared<PeerConnection>(std::move(socket), poller_,
                                                PeerConnection::Role::kAcceptor, -1, handshake_,
                                                options_.max_frame_bytes, AsListener());
      unattached_.push_back(c);
      c->Start();
    } else {
      Log("accept failed: " + ec.message());
    }
    if (!local_done_) Accept();
  });
}

void TcpTransport::Dial(NodeId rank, PeerAddress address, SteadyClock::time_point deadline) {
  auto socket = std::make_shared<asio::ip::tcp::socket>(io_);
  asio::error_code ec;
  asio::ip::tcp::resolver resolver(io_);
  auto results = resolver.resolve(address.host, std::to_string(address.port), ec);
  auto retry_or_fail = [this, rank, address, deadline](const std::string& why) {
    if (SteadyClock::now() >= deadline) {
      Fail(Status::Error("cannot reach rank " + std::to_string(rank) + " at " + address.host + ":" +
                         std::to_string(address.port) + " within --peer-timeout: " + why));
      return;
    }
    auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(100));
    timer->async_wait([this, timer, rank, address, deadline](const asio::error_code& e) {
      if (!e) Dial(rank, address, deadline);
    });
  };
  if (ec) {
    retry_or_fail("cannot resolve '" + address.host + "': " + ec.message());
    return;
  }
  asio::async_connect(*socket, results,
                      [this, socket, rank, retry_or_fail](const asio::error_code& e,
                                                          const asio::ip::tcp::endpoint&) {
                        if (e) {
                          retry_or_fail(e.message());
                          return;
                        }
                        auto c = std::make_shared<PeerConnection>(
                            std::move(*socket), poller_, PeerConnection::Role::kDialer, rank,
                            handshake_, options_.max_frame_bytes, AsListener());
                        unattached_.push_back(c);
                        c->Start();
                      });
}

Status TcpTransport::OnAuthenticated(PeerConnection& c) {
  const NodeId p = static_cast<NodeId>(c.peer_rank());
  if (c.role() == PeerConnection::Role::kAcceptor && p < options_.rank) {
    return Status::Error("rank " + std::to_string(p) + " dialed rank " +
                         std::to_string(options_.rank) + " (only higher ranks dial lower ones)");
  }
  if (peers_[p].conn) return Status::Error("rank " + std::to_string(p) + " is already connected");
  for (auto it = unattached_.begin(); it != unattached_.end(); ++it) {
    if (it->get() == &c) {
      peers_[p].conn = std::move(*it);
      unattached_.erase(it);
      break;
    }
  }
  AUGUR_CHECK(peers_[p].conn.get() == &c, "authenticated connection not tracked");
  if (options_.rank != 0 && p == 0) OnCoordinatorReady(c);
  {
    Outbox& box = *outboxes_[p];
    std::lock_guard<std::mutex> g(box.mu);
    while (!peers_[p].pending.empty()) {
      c.Send(FrameKind::kData, std::move(peers_[p].pending.front()));
      peers_[p].pending.pop_front();
    }
    box.conn = peers_[p].conn;
  }
  CheckReady();
  return Status::Ok();
}

void TcpTransport::OnCoordinatorReady(PeerConnection& c) {
  PeerAddress me = advertised_;
  if (me.host.empty()) me.host = c.local_endpoint().address().to_string();
  c.Send(FrameKind::kRegister, EncodeRegister(Register{me}));
}

Status TcpTransport::HandleRegister(NodeId from, const Frame& f) {
  if (options_.rank != 0)
    return Status::Error("register frame sent to rank " + std::to_string(options_.rank));
  Result<Register> r = DecodeRegister(f.payload);
  if (!r.ok()) return r.status();
  if (peers_[from].address) return Status::Error("rank registered twice");
  PeerAddress a = r->listen;
  if (a.host.empty()) a.host = peers_[from].conn->remote_host();
  peers_[from].address = a;
  for (NodeId p = 1; p < options_.nodes; ++p)
    if (!peers_[p].address) return Status::Ok();
  Roster roster;
  roster.ranks.push_back(PeerAddress{options_.coordinator_host, options_.coordinator_port});
  for (NodeId p = 1; p < options_.nodes; ++p) roster.ranks.push_back(*peers_[p].address);
  const std::vector<uint8_t> payload = EncodeRoster(roster);
  for (NodeId p = 1; p < options_.nodes; ++p) peers_[p].conn->Send(FrameKind::kRoster, payload);
  roster_sent_ = true;
  return Status::Ok();
}

Status TcpTransport::HandleRoster(const Frame& f) {
  Result<Roster> r = DecodeRoster(f.payload, options_.nodes);
  if (!r.ok()) return r.status();
  if (r->ranks.size() != options_.nodes) return Status::Error("roster does not list every rank");
  const auto deadline = SteadyClock::now() + ToDuration(options_.peer_timeout_seconds);
  for (NodeId j = 1; j < options_.rank; ++j) Dial(j, r->ranks[j], deadline);
  return Status::Ok();
}

void TcpTransport::CheckReady() {
  for (NodeId p = 0; p < options_.nodes; ++p)
    if (p != options_.rank && !peers_[p].conn) return;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (ready_) return;
    ready_ = true;
  }
  cv_.notify_all();
}

}  // namespace augur::tcp
