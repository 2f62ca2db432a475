// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC20Like {
    function balanceOf(address owner) external view returns (uint256);
}

interface IUniswapV2Router {
    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory);
    function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline) external payable;
    function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline) external;
}

/**
 * Trade simulation for a token's risk read. Never deployed: the ingester places this runtime code
 * at a fresh address with an eth_call state override, gives that address a native balance, and
 * calls it at the block being read. Every step is caught, so one call reports them all: a buy
 * through a Uniswap V2 router (path from WETH to the token), a second buy in the same block
 * (cooldown / anti-bot limits), a plain transfer of a quarter to a fresh address (transfer tax),
 * and a sell of the rest back along the path (honeypot, sell tax). Taxes are read by the caller
 * from what arrived versus the router's quote.
 */
contract TradeProbe {
    struct Result {
        bool buyOk;
        uint256 buyQuote;
        uint256 bought;
        bytes buyError;
        bool rebuyOk;
        bytes rebuyError;
        bool transferOk;
        uint256 sent;
        uint256 arrived;
        bytes transferError;
        bool sellOk;
        uint256 sellQuote;
        uint256 sold;
        bytes sellError;
    }

    receive() external payable {}

    /**
     * The larger buy first, undone: it runs in a call to this contract that always reverts, its
     * outcome carried out in the revert data (ok flag and the buy's own revert reason), so the
     * steps after it see the pool as it was. One eth_call reports every step.
     */
    function probe(address router, address[] calldata path, uint256 buyWei, uint256 largeWei) external returns (Result memory r, bool largeOk, bytes memory largeError) {
        try this.buyAndUndo(router, path, largeWei) {} catch (bytes memory e) {
            (largeOk, largeError) = _undone(e);
        }
        address token = path[path.length - 1];
        if (!_buy(r, router, path, buyWei, token)) return (r, largeOk, largeError);
        try IUniswapV2Router(router).swapExactETHForTokensSupportingFeeOnTransferTokens{value: buyWei / 10}(0, path, address(this), block.timestamp + 3600) {
            r.rebuyOk = true;
        } catch (bytes memory e) {
            r.rebuyError = e;
        }
        _transfer(r, token);
        _sell(r, router, path, token);
    }

    function _buy(Result memory r, address router, address[] calldata path, uint256 buyWei, address token) private returns (bool) {
        try IUniswapV2Router(router).getAmountsOut(buyWei, path) returns (uint256[] memory a) {
            r.buyQuote = a[a.length - 1];
        } catch (bytes memory e) {
            r.buyError = e;
            return false;
        }
        uint256 before = _balance(token, address(this));
        try IUniswapV2Router(router).swapExactETHForTokensSupportingFeeOnTransferTokens{value: buyWei}(0, path, address(this), block.timestamp + 3600) {
            r.buyOk = true;
        } catch (bytes memory e) {
            r.buyError = e;
            return false;
        }
        r.bought = _balance(token, address(this)) - before;
        return true;
    }

    function _transfer(Result memory r, address token) private {
        address peer = address(uint160(uint256(keccak256(abi.encode(address(this), block.number, "peer")))));
        r.sent = _balance(token, address(this)) / 4;
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, peer, r.sent));
        r.transferOk = ok && (ret.length == 0 || (ret.length >= 32 && abi.decode(ret, (bool))));
        if (!r.transferOk) r.transferError = ret;
        r.arrived = _balance(token, peer);
    }

    function _sell(Result memory r, address router, address[] calldata path, address token) private {
        uint256 amount = _balance(token, address(this));
        address[] memory back = new address[](path.length);
        for (uint256 i = 0; i < path.length; i++) back[i] = path[path.length - 1 - i];
        token.call(abi.encodeWithSelector(0x095ea7b3, router, type(uint256).max));
        try IUniswapV2Router(router).getAmountsOut(amount, back) returns (uint256[] memory a) {
            r.sellQuote = a[a.length - 1];
        } catch {}
        uint256 ethBefore = address(this).balance;
        try IUniswapV2Router(router).swapExactTokensForETHSupportingFeeOnTransferTokens(amount, 0, back, address(this), block.timestamp + 3600) {
            r.sellOk = true;
            r.sold = address(this).balance - ethBefore;
        } catch (bytes memory e) {
            r.sellError = e;
        }
    }

    error Undone(bool ok, bytes err);

    /** a buy alone (a larger size: max-transaction and max-wallet limits), then reverted with its outcome */
    function buyAndUndo(address router, address[] calldata path, uint256 buyWei) external {
        require(msg.sender == address(this), "self only");
        bool ok;
        bytes memory err;
        try IUniswapV2Router(router).swapExactETHForTokensSupportingFeeOnTransferTokens{value: buyWei}(0, path, address(this), block.timestamp + 3600) {
            ok = true;
        } catch (bytes memory e) {
            err = e;
        }
        revert Undone(ok, err);
    }

    /** the outcome buyAndUndo carried out in its revert (anything else: the call itself failed) */
    function _undone(bytes memory e) private pure returns (bool ok, bytes memory err) {
        if (e.length < 4 || bytes4(e) != Undone.selector) return (false, e);
        bytes memory args = new bytes(e.length - 4);
        for (uint256 i = 4; i < e.length; i++) args[i - 4] = e[i];
        return abi.decode(args, (bool, bytes));
    }

    function _balance(address token, address who) private view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, who));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }
}
